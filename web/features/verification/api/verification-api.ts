import { useQuery } from "@tanstack/react-query";
import type { VerificationRequest, VerificationStatus } from "@contract/verification";
import { apiRequest, uploadJson } from "../../../lib/api-client";

export const verificationStatusKey = ["verification-status"] as const;

export function useVerificationStatus() {
  return useQuery({
    queryKey: verificationStatusKey,
    queryFn: () => apiRequest<{ data: VerificationStatus }>("verification/status").then((r) => r.data),
  });
}

export const uploadDocument = (file: { name: string; type: string }, imageData: string, onProgress: (p: number) => void) =>
  uploadJson<{ id_document_url: string }>(
    "verification/upload-document",
    { filename: file.name, content_type: file.type, image_data: imageData },
    onProgress,
  );

export const submitVerification = (input: { document_type: string; notes: string | null; id_document_url: string }) =>
  apiRequest<{ data: VerificationRequest }>("verification/submit-url", { method: "POST", body: input }).then((r) => r.data);
