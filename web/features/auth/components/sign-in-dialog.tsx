import { useCallback, useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router-dom";
import { deferred } from "../../../components/ui/deferred";
import { Dialog } from "../../../components/ui/dialog";
import { FormError, TextField } from "../../../components/ui/field";
import { useToast } from "../../../components/ui/toast";
import { paths } from "../../../config/paths";
import { ApiError } from "../../../lib/api-client";
import { authErrorMessage } from "../lib/throttle";
import { signInPrompt } from "../../../lib/sign-in-prompt";
import { useLogin } from "../api/auth-api";
import { GoogleButton } from "./google-button";
import { welcomeDestination } from "../lib/welcome";

// The rarer steps load when they are reached (docs/decisions/023): the popup itself is already a lazy chunk.
const VerifyEmailDialog = deferred(() => import("./verify-email-dialog").then((m) => m.VerifyEmailDialog));
const ForgotPasswordDialog = deferred(() => import("./forgot-password-dialog").then((m) => m.ForgotPasswordDialog));
const CodeSignInDialog = deferred(() => import("./code-sign-in-dialog").then((m) => m.CodeSignInDialog));

const isUnverifiedEmail = (err: unknown) => err instanceof ApiError && err.body?.code === "email_not_verified";

interface SignInDialogProps {
  open: boolean;
  /** Prefills the email when the popup opens (sign-up's "account already exists"). */
  initialEmail?: string;
  onClose: () => void;
}

/**
 * The Sign In popup: email and password, Google, a link to sign up, password reset. On success it
 * closes and the user goes where the prompt was opened for (a locked page or action), else to /.
 */
export function SignInDialog({ open, initialEmail, onClose }: SignInDialogProps) {
  const navigate = useNavigate();
  const toast = useToast();
  const [email, setEmail] = useState(initialEmail ?? "");
  const [prefilled, setPrefilled] = useState(initialEmail);
  if (open && initialEmail && initialEmail !== prefilled) {
    setPrefilled(initialEmail);
    setEmail(initialEmail);
  }
  const [password, setPassword] = useState("");
  const [invalid, setInvalid] = useState<string | null>(null);
  const login = useLogin();
  const [verifyEmail, setVerifyEmail] = useState<string | null>(null);
  const [forgotOpen, setForgotOpen] = useState(false);
  const [codeOpen, setCodeOpen] = useState(false);

  const resetLogin = login.reset;
  const finish = useCallback(() => {
    const { returnTo, afterSignIn } = signInPrompt.takeIntent();
    setPassword("");
    setInvalid(null);
    resetLogin();
    onClose();
    navigate(returnTo ?? paths.home);
    afterSignIn?.();
  }, [navigate, onClose, resetLogin]);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!email.trim() || !password) {
      setInvalid("Please enter your email and password");
      return;
    }
    setInvalid(null);
    login.mutate(
      { email, password },
      {
        onSuccess: finish,
        onError: (err) => {
          if (!isUnverifiedEmail(err)) return;
          onClose();
          setVerifyEmail(email.trim().toLowerCase());
        },
      },
    );
  }
  // An unverified email is not an error here: the code dialog takes over.
  // Throttled (429): the real wait, and the emailed code, offered first here (it is never throttled by
  // failed passwords). (The button's label avoids "Sign in", which the browser journeys' role queries
  // match as a substring.)
  const throttled = login.error instanceof ApiError && login.error.status === 429;
  const loginError = login.error && !isUnverifiedEmail(login.error) ? authErrorMessage(login.error, "Login failed") : null;
  const error = invalid ?? (throttled && loginError ? `${loginError} Or sign in now with an emailed code.` : loginError);
  const openCodeSignIn = () => {
    onClose();
    setCodeOpen(true);
  };

  return (
    <>
      <Dialog open={open} onClose={onClose} size="sm" title="Sign in" description="Welcome back to CampusNest.">
        <form onSubmit={onSubmit} noValidate className="stack">
          <TextField label="Email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} data-autofocus />
          <TextField label="Password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
          <FormError message={error} />
          {throttled && (
            <button type="button" className="button button-primary" onClick={openCodeSignIn}>
              Email me a sign-in code
            </button>
          )}
          <button type="submit" className={throttled ? "button button-ghost" : "button button-primary"} disabled={login.isPending}>
            {login.isPending ? "Signing in…" : "Sign In"}
          </button>
          {!throttled && (
            <button type="button" className="link-button" onClick={openCodeSignIn}>
              Email me a sign-in code
            </button>
          )}
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
        load={verifyEmail !== null}
        email={verifyEmail}
        onClose={() => setVerifyEmail(null)}
        onVerified={(auth) => {
          setVerifyEmail(null);
          // A code typed later is still a new student's first sign-in: welcomed on
          // their university's listings, unless a locked page or action asked for the sign-in.
          const { returnTo, afterSignIn } = signInPrompt.takeIntent();
          setPassword("");
          setInvalid(null);
          resetLogin();
          if (returnTo) navigate(returnTo);
          else {
            const welcome = welcomeDestination(auth.user);
            navigate(welcome.to, { state: welcome.state });
          }
          afterSignIn?.();
        }}
      />
      <CodeSignInDialog
        key={`code-${String(codeOpen)}`}
        load={codeOpen}
        open={codeOpen}
        initialEmail={email}
        onClose={() => setCodeOpen(false)}
        onSignedIn={() => {
          setCodeOpen(false);
          finish();
        }}
      />
      <ForgotPasswordDialog
        key={String(forgotOpen)}
        load={forgotOpen}
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
