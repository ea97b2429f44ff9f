import { useMutation } from "@tanstack/react-query";
import type { z } from "zod";
import type { FeedbackSentResponse, feedbackSchema } from "@contract/admin";
import { apiRequest } from "../../../lib/api-client";

export const sendFeedback = (input: z.input<typeof feedbackSchema>) =>
  apiRequest<FeedbackSentResponse>("feedback/", { method: "POST", body: input, auth: false });

/** Nothing on this side of the app reads feedback back, so nothing to invalidate. */
export const useSendFeedback = () => useMutation({ mutationFn: sendFeedback });
