import { useState, type FormEvent } from "react";
import { TIMINGS } from "@contract/constants";
import { Dialog } from "../../../components/ui/dialog";
import { FormError, TextAreaField, TextField } from "../../../components/ui/field";
import { apiRequest } from "../../../lib/api-client";
import { useSession } from "../../../lib/session";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The floating feedback button on every public page: email + message, confirmation for 3 s. */
export function FeedbackWidget() {
  const { session } = useSession();
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState("");
  const [message, setMessage] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const from = email.trim() || session?.user.email || "";
    if (!from || !message.trim()) return setError("Please fill in all fields");
    if (!EMAIL.test(from)) return setError("Please enter a valid email address");
    setBusy(true);
    setError(null);
    try {
      await apiRequest("feedback/", { method: "POST", body: { email: from, message: message.trim() }, auth: false });
      setSent(true);
      setMessage("");
      window.setTimeout(() => {
        setSent(false);
        setOpen(false);
      }, TIMINGS.feedbackToastMs);
    } catch {
      setError("Failed to send feedback. Please try again.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" className="feedback-fab" onClick={() => setOpen(true)}>
        Feedback
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} size="sm" title="Send feedback" description="Tell us what works, what doesn't, or report a suspicious listing.">
        {sent ? (
          <p className="form-notice" role="status">
            Thanks! Your feedback was sent.
          </p>
        ) : (
          <form onSubmit={onSubmit} noValidate className="stack">
            <TextField label="Email" type="email" autoComplete="email" value={email} placeholder={session?.user.email} onChange={(e) => setEmail(e.target.value)} data-autofocus />
            <TextAreaField label="Message" rows={4} maxLength={5000} value={message} onChange={(e) => setMessage(e.target.value)} />
            <FormError message={error} />
            <button type="submit" className="button button-primary" disabled={busy}>
              {busy ? "Sending…" : "Send feedback"}
            </button>
          </form>
        )}
      </Dialog>
    </>
  );
}
