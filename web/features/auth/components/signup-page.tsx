import { useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router-dom";
import type { AuthResponse } from "@contract/auth";
import { LIMITS } from "@contract/limits";
import { signupFormSchema, type SignupFormValues } from "@contract/forms";
import { PageFrame } from "../../../components/layout/page-frame";
import { FormError, TextField } from "../../../components/ui/field";
import { useToast } from "../../../components/ui/toast";
import { UniversityCombobox } from "../../../components/university-combobox";
import { paths } from "../../../config/paths";
import { ApiError } from "../../../lib/api-client";
import { authErrorMessage } from "../lib/throttle";
import { signInPrompt } from "../../../lib/sign-in-prompt";
import { useRegister } from "../api/auth-api";
import { ForgotPasswordDialog } from "./forgot-password-dialog";
import { GoogleButton } from "./google-button";
import { VerifyEmailDialog } from "./verify-email-dialog";
import { useFocusFirstInvalid } from "../../../lib/focus-first-invalid";
import { welcomeDestination } from "../lib/welcome";

type Field = keyof SignupFormValues;
type Errors = Partial<Record<Field, string>>;

const EMPTY: SignupFormValues = { first_name: "", last_name: "", email: "", university_id: "", password: "", confirm: "" };
const PASSWORD_HINT = `At least ${LIMITS.passwordMin} characters.`;

/** The form's errors by field (the first per field), by the server's own rules (contract/forms.ts). */
export function validateSignup(form: SignupFormValues): Errors {
  const result = signupFormSchema.safeParse(form);
  const errors: Errors = {};
  for (const issue of result.error?.issues ?? []) {
    const field = issue.path[0] as Field;
    errors[field] ??= issue.message;
  }
  return errors;
}

export function SignupPage() {
  const navigate = useNavigate();
  const toast = useToast();
  const [form, setForm] = useState<SignupFormValues>(EMPTY);
  // A field's error shows once it was left (or the form submitted) and goes as soon as it is valid.
  const [touched, setTouched] = useState<ReadonlySet<Field>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  // Each refused submit moves focus to the first field to fix.
  const { formRef, refuse } = useFocusFirstInvalid();
  const [forgotOpen, setForgotOpen] = useState(false);
  const register = useRegister();
  const found = validateSignup(form);
  const shown: Errors = Object.fromEntries(Object.entries(found).filter(([name]) => submitted || touched.has(name as Field)));
  const serverErrors: Errors = register.error instanceof ApiError && register.error.body?.errors ? Object.fromEntries(register.error.body.errors.map((e) => [e.path, e.message])) : {};
  const errors: Errors = { ...serverErrors, ...shown };
  const emailTaken = register.error instanceof ApiError && register.error.status === 409;
  const formError = register.error && authErrorMessage(register.error, "Registration failed");
  const [verifyEmail, setVerifyEmail] = useState<string | null>(null);
  const email = form.email.trim().toLowerCase();

  const field = (name: Field) => ({
    value: form[name],
    error: errors[name],
    onChange: (e: { target: { value: string } }) => {
      setForm((f) => ({ ...f, [name]: e.target.value }));
      // What the server said was about the old values.
      if (register.error) register.reset();
    },
    onBlur: () => setTouched((t) => new Set(t).add(name)),
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    register.reset();
    if (Object.keys(found).length) return refuse();
    register.mutate(
      {
        email: form.email.trim(),
        password: form.password,
        first_name: form.first_name.trim(),
        last_name: form.last_name.trim(),
        university_id: Number(form.university_id),
      },
      {
        onSuccess: () => setVerifyEmail(email),
        // The server's field errors (422) are found the same way.
        onError: (err) => {
          if (err instanceof ApiError && err.body?.errors?.length) refuse();
        },
      },
    );
  }

  function onVerified(auth: AuthResponse) {
    const { to, state } = welcomeDestination(auth.user);
    navigate(to, { state });
  }

  return (
    <PageFrame title="Create your account" lead="Message others and create your own listings!" width="narrow">
      <section className="panel">
        <form ref={formRef} onSubmit={onSubmit} noValidate className="stack">
          <div className="grid-2">
            <TextField label="First name" autoComplete="given-name" required {...field("first_name")} />
            <TextField label="Last name" autoComplete="family-name" required {...field("last_name")} />
          </div>
          <TextField label="Email" type="email" autoComplete="email" required {...field("email")} />
          <UniversityCombobox
            required
            value={form.university_id || null}
            error={errors.university_id}
            placeholder="Type your university's name"
            onChange={(v) => {
              setForm((f) => ({ ...f, university_id: v ?? "" }));
              setTouched((t) => new Set(t).add("university_id"));
            }}
          />
          <div className="grid-2">
            {/* The hint gives way to the error rather than repeating it. */}
            <TextField label="Password" type="password" autoComplete="new-password" required hint={errors.password ? undefined : PASSWORD_HINT} {...field("password")} />
            <TextField label="Confirm password" type="password" autoComplete="new-password" required {...field("confirm")} />
          </div>
          {emailTaken ? (
            <div className="form-error signup-taken" role="alert">
              <p>{formError}</p>
              <div className="row">
                <button type="button" className="button button-primary" onClick={() => signInPrompt.openFor({ email })}>
                  Sign in
                </button>
                <button type="button" className="button button-ghost" onClick={() => setForgotOpen(true)}>
                  Reset password
                </button>
              </div>
            </div>
          ) : (
            <FormError message={formError} />
          )}
          <p className="muted signup-terms">
            By signing up you agree to the{" "}
            {/* A new tab, so reading the Terms never empties the form. */}
            <Link to={paths.terms} target="_blank" rel="noopener">
              Terms<span className="visually-hidden"> (opens in a new tab)</span>
            </Link>
            .
          </p>
          <button type="submit" className="button button-primary button-lg" disabled={register.isPending}>
            {register.isPending ? "Creating account…" : "Sign up"}
          </button>
        </form>
        <GoogleButton onSignedIn={() => navigate(paths.home)} />
        <p className="dialog-aside">
          Already have an account?{" "}
          <button type="button" className="link-button" onClick={signInPrompt.open}>
            Sign in
          </button>
        </p>
      </section>
      <VerifyEmailDialog email={verifyEmail} onClose={() => setVerifyEmail(null)} onVerified={onVerified} />
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
    </PageFrame>
  );
}
