/** What this browser answered to the push offer (docs/decisions/027), shared by the offer and the prompt. */
export type AskMoment = "message_sent" | "search_saved" | "deal_requested";

export const ASK_STORAGE_KEY = "push_ask";

export function rememberAnswer(answer: "not_now" | "asked"): void {
  try {
    localStorage.setItem(ASK_STORAGE_KEY, answer);
  } catch {
    // Private mode: the question may come back next session, which is acceptable.
  }
}
