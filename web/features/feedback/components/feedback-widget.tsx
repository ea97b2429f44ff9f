import { useState, type FormEvent } from "react";
import { useLocation } from "react-router-dom";
import { TIMINGS } from "@contract/constants";
import { LIMITS } from "@contract/limits";
import { Dialog } from "../../../components/ui/dialog";
import { FormError, isOverLimit, TextAreaField, TextField } from "../../../components/ui/field";
import { useSession } from "../../../lib/session";
import { useSendFeedback } from "../api/send-feedback";

// Checked by hand, not with the contract's feedbackSchema: this widget is on every public page, and
// importing zod here would put it in the entry chunk (+24 kB gzip). Same messages as the schema.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The feedback form behind the floating Feedback button (feedback-button.tsx): email + message, confirmation for 3 s. */
export function FeedbackDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { session } = useSession();
  // Staff read which page it was sent from: the path only (a query can hold a one-click token).
  const { pathname } = useLocation();
  const [email, setEmail] = useState("");
  const [message, setMessage] = useState("");
  const [invalid, setInvalid] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const send = useSendFeedback();
  const error = invalid ?? (send.isError ? "Failed to send feedback. Please try again." : null);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    send.reset();
    const from = email.trim() || session?.user.email || "";
    if (!from || !message.trim()) return setInvalid("Please fill in all fields");
    if (!EMAIL.test(from)) return setInvalid("Please enter a valid email address");
    // The field already says how much to cut.
    if (isOverLimit(message.trim(), LIMITS.feedbackMessageMax)) return setInvalid(null);
    setInvalid(null);
    send.mutate(
      { email: from, message: message.trim(), page: pathname },
      {
        onSuccess: () => {
          setSent(true);
          setMessage("");
          window.setTimeout(() => {
            setSent(false);
            onClose();
          }, TIMINGS.feedbackToastMs);
        },
      },
    );
  }

  return (
    <Dialog open={open} onClose={onClose} size="sm" title="Send feedback" description="Tell us what works, what doesn't, or report a suspicious listing.">
      {sent ? (
        <p className="form-notice" role="status">
          Thanks! Your feedback was sent.
        </p>
      ) : (
        <form onSubmit={onSubmit} noValidate className="stack">
          <TextField label="Email" type="email" autoComplete="email" value={email} placeholder={session?.user.email} onChange={(e) => setEmail(e.target.value)} data-autofocus />
          <TextAreaField label="Message" rows={4} limit={LIMITS.feedbackMessageMax} value={message} onChange={(e) => setMessage(e.target.value)} />
          <FormError message={error} />
          <button type="submit" className="button button-primary" disabled={send.isPending}>
            {send.isPending ? "Sending…" : "Send feedback"}
          </button>
        </form>
      )}
    </Dialog>
  );
}
