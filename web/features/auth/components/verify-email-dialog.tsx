import { useEffect, useState, type FormEvent } from "react";
import type { AuthResponse } from "@contract/auth";
import { TIMINGS } from "@contract/constants";
import { EMAILED_CODE } from "@contract/limits";
import { Dialog } from "../../../components/ui/dialog";
import { FormError } from "../../../components/ui/field";
import { ApiError } from "../../../lib/api-client";
import { authErrorMessage } from "../lib/throttle";
import { useSendVerificationCode, useVerifyEmail } from "../api/auth-api";
import { codeDigits, codeProblem } from "./code-field";

interface VerifyEmailDialogProps {
  email: string | null;
  onClose: () => void;
  onVerified: (auth: AuthResponse) => void;
}

const COOLDOWN_S = TIMINGS.emailCodeResendMs / 1000;

/** The 6-digit code step: digits only (a pasted code with spaces works), resend after 60 s. */
export function VerifyEmailDialog(props: VerifyEmailDialogProps) {
  // A new address starts from a clean form and a fresh countdown.
  return <VerifyEmailForm key={props.email ?? ""} {...props} />;
}

function VerifyEmailForm({ email, onClose, onVerified }: VerifyEmailDialogProps) {
  const [code, setCode] = useState("");
  const [invalid, setInvalid] = useState<string | null>(null);
  const [cooldown, setCooldown] = useState(COOLDOWN_S);
  const verify = useVerifyEmail();
  const resend = useSendVerificationCode();
  const notice = resend.isSuccess ? "We sent you a new code." : null;
  const error =
    invalid ??
    (verify.error ? authErrorMessage(verify.error, "Verification failed") : resend.error ? authErrorMessage(resend.error, "Failed to resend verification code") : null);

  useEffect(() => {
    if (!email || cooldown <= 0) return;
    const timer = window.setTimeout(() => setCooldown((s) => s - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [email, cooldown]);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!email) return;
    const problem = codeProblem(code);
    if (problem) {
      setInvalid(problem);
      return;
    }
    setInvalid(null);
    // A failed resend's message gives way; a sent code's notice stays.
    if (resend.isError) resend.reset();
    verify.mutate({ email, code }, { onSuccess: (auth) => onVerified(auth) });
  }

  function onResend() {
    if (!email) return;
    setInvalid(null);
    verify.reset();
    resend.mutate(email, {
      onSuccess: () => setCooldown(COOLDOWN_S),
      onError: (err) => {
        if (err instanceof ApiError && err.body?.retry_after) setCooldown(err.body.retry_after);
      },
    });
  }

  return (
    <Dialog
      open={email !== null}
      onClose={onClose}
      size="sm"
      title="Verify your email"
      description={email ? `We sent a ${EMAILED_CODE.length}-digit code to ${email}. It expires in ${TIMINGS.emailCodeTtlMs / 60_000} minutes.` : undefined}
    >
      <form onSubmit={onSubmit} noValidate className="stack">
        <label className="field">
          <span className="field-label">Verification code</span>
          <input
            className="code-input"
            data-autofocus
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="\d{6}"
            maxLength={EMAILED_CODE.length}
            value={code}
            aria-invalid={!!error || undefined}
            onChange={(e) => setCode(codeDigits(e.target.value))}
            onPaste={(e) => {
              e.preventDefault();
              setCode(codeDigits(e.clipboardData.getData("text")));
            }}
          />
        </label>
        <FormError message={error} />
        {notice && (
          <p className="form-notice" role="status">
            {notice}
          </p>
        )}
        <button type="submit" className="button button-primary" disabled={verify.isPending}>
          {verify.isPending ? "Verifying…" : "Verify email"}
        </button>
        <button type="button" className="link-button" onClick={onResend} disabled={cooldown > 0}>
          {cooldown > 0 ? `Resend code in ${cooldown}s` : "Resend code"}
        </button>
      </form>
    </Dialog>
  );
}
