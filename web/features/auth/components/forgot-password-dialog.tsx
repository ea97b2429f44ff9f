import { useState, type FormEvent } from "react";
import { LIMITS } from "@contract/constants";
import { Dialog } from "../../../components/ui/dialog";
import { FormError, TextField } from "../../../components/ui/field";
import { errorMessage } from "../../../lib/api-client";
import { forgotPassword, resetPassword } from "../api/auth-api";

interface ForgotPasswordDialogProps {
  open: boolean;
  initialEmail: string;
  onClose: () => void;
  onDone: (message: string) => void;
}

/** Password reset by emailed code: ask for the email, then the code and a new password. */
export function ForgotPasswordDialog({ open, initialEmail, onClose, onDone }: ForgotPasswordDialogProps) {
  const [step, setStep] = useState<"email" | "code">("email");
  const [email, setEmail] = useState(initialEmail);
  const [code, setCode] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (step === "code") {
      if (!/^\d{6}$/.test(code)) return setError("Please enter a 6-digit verification code");
      if (password.length < LIMITS.passwordMin) return setError("Password must be at least 6 characters long");
    }
    setBusy(true);
    try {
      if (step === "email") {
        await forgotPassword(email);
        setStep("code");
      } else {
        onDone((await resetPassword(email, code, password)).message);
      }
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      size="sm"
      title="Reset your password"
      description={
        step === "email"
          ? "Enter your account's email. We'll send you a 6-digit code."
          : `If an account exists for ${email}, we sent it a code. Enter it with your new password.`
      }
    >
      <form onSubmit={onSubmit} noValidate className="stack">
        {step === "email" ? (
          <TextField label="Email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} data-autofocus />
        ) : (
          <>
            <TextField
              label="Code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, "").slice(0, 6))}
              data-autofocus
            />
            <TextField label="New password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          </>
        )}
        <FormError message={error} />
        <button type="submit" className="button button-primary" disabled={busy}>
          {step === "email" ? "Send code" : "Change password"}
        </button>
      </form>
    </Dialog>
  );
}
