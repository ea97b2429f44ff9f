import { useState, type FormEvent } from "react";
import { TIMINGS } from "@contract/constants";
import { EMAILED_CODE } from "@contract/limits";
import { LIMITS } from "@contract/limits";
import { ApiError } from "../../../lib/api-client";
import { Dialog } from "../../../components/ui/dialog";
import { FormError, TextField } from "../../../components/ui/field";
import { authErrorMessage, waitText } from "../lib/throttle";
import { useForgotPassword, useResetPassword } from "../api/auth-api";
import { CodeField, codeProblem } from "./code-field";

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
  const [invalid, setInvalid] = useState<string | null>(null);
  // Asked again within the resend wait: the code already emailed still works, so say so and take it.
  const [resendIn, setResendIn] = useState<number | null>(null);
  const forgot = useForgotPassword();
  const reset = useResetPassword();
  const failed = (resendIn === null ? forgot.error : null) ?? reset.error;
  const error = invalid ?? (failed && authErrorMessage(failed));

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setInvalid(null);
    forgot.reset();
    reset.reset();
    if (step === "code") {
      const problem = codeProblem(code);
      if (problem) return setInvalid(problem);
      if (password.length < LIMITS.passwordMin) return setInvalid(`Password must be at least ${LIMITS.passwordMin} characters long`);
      reset.mutate({ email, code, password }, { onSuccess: ({ message }) => onDone(message) });
    } else {
      setResendIn(null);
      forgot.mutate(email, {
        onSuccess: () => setStep("code"),
        onError: (err) => {
          const wait = err instanceof ApiError && err.status === 429 ? err.body?.retry_after : undefined;
          if (typeof wait === "number" && wait > 0 && wait * 1000 <= TIMINGS.emailCodeResendMs) {
            setResendIn(wait);
            setStep("code");
          }
        },
      });
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
          ? `Enter your account's email. We'll send you a ${EMAILED_CODE.length}-digit code.`
          : resendIn !== null
            ? `A code was sent to ${email} less than a minute ago. Enter it with your new password (a new code can be sent in ${waitText(resendIn)}).`
            : `If an account exists for ${email}, we sent it a code. Enter it with your new password.`
      }
    >
      <form onSubmit={onSubmit} noValidate className="stack">
        {step === "email" ? (
          <>
            <TextField label="Email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} data-autofocus />
            <button
              type="button"
              className="link-button"
              onClick={() => {
                setInvalid(null);
                forgot.reset();
                if (!email.trim()) return setInvalid("Enter your account's email first");
                setStep("code");
              }}
            >
              I already have a code
            </button>
          </>
        ) : (
          <>
            <CodeField value={code} onCode={setCode} />
            <TextField label="New password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          </>
        )}
        <FormError message={error} />
        <button type="submit" className="button button-primary" disabled={forgot.isPending || reset.isPending}>
          {step === "email" ? "Send code" : "Change password"}
        </button>
      </form>
    </Dialog>
  );
}
