import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { DocumentUploadResponse, submitVerificationSchema, VerificationRequestResponse, VerificationStatusResponse } from "@contract/verification";
import { ApiError, apiRequest, errorMessage } from "../../../lib/api-client";
import { readAsDataUrl, uploadJson } from "../../../lib/upload";
import { authStore } from "../../../lib/auth-store";
import { fetchProfile } from "../../../lib/session";

export const verificationKeys = {
  status: ["verification-status"] as const,
};

export function useVerificationStatus() {
  return useQuery({
    queryKey: verificationKeys.status,
    queryFn: () => apiRequest<VerificationStatusResponse>("verification/status").then((r) => r.data),
  });
}

export const uploadDocument = (file: { name: string; type: string }, imageData: string, onProgress: (p: number) => void) =>
  uploadJson<DocumentUploadResponse>(
    "verification/upload-document",
    { filename: file.name, content_type: file.type, image_data: imageData },
    onProgress,
  );

type SubmitVerificationInput = z.input<typeof submitVerificationSchema>;

export const submitVerification = (input: SubmitVerificationInput) =>
  apiRequest<VerificationRequestResponse>("verification/submit-url", { method: "POST", body: input }).then((r) => r.data);

interface DocumentSubmission {
  file: File;
  documentType: SubmitVerificationInput["document_type"];
  notes: string | null;
  onProgress: (percent: number) => void;
}

/**
 * Uploads the private document, then submits the request; the status refetches and the session's
 * user is refreshed (their status is now pending). A failed upload reads as a network error.
 */
export function useSubmitVerification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ file, documentType, notes, onProgress }: DocumentSubmission) => {
      let reference: string;
      try {
        reference = (await uploadDocument(file, await readAsDataUrl(file), onProgress)).id_document_url;
      } catch (err) {
        throw err instanceof ApiError && !err.isNetworkError ? err : new ApiError(0, errorMessage(err, "Failed to upload document."));
      }
      return submitVerification({ document_type: documentType, notes, id_document_url: reference });
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: verificationKeys.status });
      void fetchProfile()
        .then(authStore.setUser)
        .catch(() => {});
    },
  });
}
