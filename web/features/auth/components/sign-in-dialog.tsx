import { useCallback, useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router-dom";
import { Dialog } from "../../../components/ui/dialog";
import { FormError, TextField } from "../../../components/ui/field";
import { useToast } from "../../../components/ui/toast";
import { paths } from "../../../config/paths";
import { ApiError, errorMessage } from "../../../lib/api-client";
import { authStore } from "../../../lib/auth-store";
import { login } from "../api/auth-api";
import { ForgotPasswordDialog } from "./forgot-password-dialog";
import { GoogleButton } from "./google-button";
import { VerifyEmailDialog } from "./verify-email-dialog";

interface SignInDialogProps {
  open: boolean;
  onClose: () => void;
}

/** The navbar's Sign In popup: email and password, Google, a link to sign up, password reset. */
export function SignInDialog({ open, onClose }: SignInDialogProps) {
  const navigate = useNavigate();
  const toast = useToast();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [verifyEmail, setVerifyEmail] = useState<string | null>(null);
  const [forgotOpen, setForgotOpen] = useState(false);

  const finish = useCallback(() => {
    setPassword("");
    setError(null);
    onClose();
    navigate(paths.home);
  }, [navigate, onClose]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!email.trim() || !password) {
      setError("Please enter your email and password");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      authStore.signIn(await login(email, password));
      finish();
    } catch (err) {
      if (err instanceof ApiError && err.body?.code === "email_not_verified") {
        onClose();
        setVerifyEmail(email.trim().toLowerCase());
      } else {
        setError(errorMessage(err, "Login failed"));
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Dialog open={open} onClose={onClose} size="sm" title="Sign in" description="Welcome back to CampusNest.">
        <form onSubmit={onSubmit} noValidate className="stack">
          <TextField label="Email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} data-autofocus />
          <TextField label="Password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
          <FormError message={error} />
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? "Signing in…" : "Sign In"}
          </button>
          <button
            type="button"
            className="link-button"
            onClick={() => {
              onClose();
              setForgotOpen(true);
            }}
          >
            Forgot password?
          </button>
        </form>
        <GoogleButton onSignedIn={finish} />
        <p className="dialog-aside">
          New to CampusNest?{" "}
          <Link to={paths.signup} onClick={onClose}>
            Sign up
          </Link>
        </p>
      </Dialog>
      <VerifyEmailDialog
        email={verifyEmail}
        onClose={() => setVerifyEmail(null)}
        onVerified={() => {
          setVerifyEmail(null);
          navigate(paths.home);
        }}
      />
      <ForgotPasswordDialog
        key={String(forgotOpen)}
        open={forgotOpen}
        initialEmail={email}
        onClose={() => setForgotOpen(false)}
        onDone={(message) => {
          setForgotOpen(false);
          toast.show(message, { kind: "success", durationMs: 4000 });
        }}
      />
    </>
  );
}
