import { useState, type FormEvent } from "react";
import { EMAILED_CODE } from "@contract/limits";
import { Dialog } from "../../../components/ui/dialog";
import { FormError, TextField } from "../../../components/ui/field";
import { authErrorMessage } from "../lib/throttle";
import { useLoginWithCode, useSendSignInCode } from "../api/auth-api";
import { CodeField, codeProblem } from "./code-field";

interface CodeSignInDialogProps {
  open: boolean;
  initialEmail: string;
  onClose: () => void;
  onSignedIn: () => void;
}

/**
 * Sign in with an emailed code: the way in that the password throttles never block (an attacker
 * guessing elsewhere can slow password sign-in, never this). Ask for the email, then the code.
 */
export function CodeSignInDialog({ open, initialEmail, onClose, onSignedIn }: CodeSignInDialogProps) {
  const [step, setStep] = useState<"email" | "code">("email");
  const [email, setEmail] = useState(initialEmail);
  const [code, setCode] = useState("");
  const [invalid, setInvalid] = useState<string | null>(null);
  const send = useSendSignInCode();
  const login = useLoginWithCode();
  const failed = send.error ?? login.error;
  const error = invalid ?? (failed && authErrorMessage(failed));

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setInvalid(null);
    send.reset();
    login.reset();
    if (step === "code") {
      const problem = codeProblem(code);
      if (problem) return setInvalid(problem);
      login.mutate({ email, code }, { onSuccess: onSignedIn });
    } else {
      if (!email.trim()) return setInvalid("Please enter your email");
      send.mutate(email, { onSuccess: () => setStep("code") });
    }
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      size="sm"
      title="Sign-in code by email"
      description={step === "email" ? `We'll email you a ${EMAILED_CODE.length}-digit code that signs you in.` : `If an account exists for ${email}, we sent it a code. Enter it to sign in.`}
    >
      <form onSubmit={onSubmit} noValidate className="stack">
        {step === "email" ? (
          <TextField label="Email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} data-autofocus />
        ) : (
          <CodeField value={code} onCode={setCode} />
        )}
        <FormError message={error} />
        <button type="submit" className="button button-primary" disabled={send.isPending || login.isPending}>
          {step === "email" ? "Email me a code" : login.isPending ? "Signing in…" : "Sign In"}
        </button>
      </form>
    </Dialog>
  );
}
