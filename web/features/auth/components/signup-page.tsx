import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router-dom";
import { LIMITS } from "@contract/constants";
import { PageFrame } from "../../../components/layout/page-frame";
import { FormError, TextField } from "../../../components/ui/field";
import { UniversitySelect } from "../../../components/university-select";
import { paths } from "../../../config/paths";
import { ApiError, errorMessage } from "../../../lib/api-client";
import { signInPrompt } from "../../../lib/sign-in-prompt";
import { useRegister } from "../api/auth-api";
import { GoogleButton } from "./google-button";
import { VerifyEmailDialog } from "./verify-email-dialog";

interface SignupForm {
  first_name: string;
  last_name: string;
  email: string;
  university_id: string;
  password: string;
  confirm: string;
}
type Errors = Partial<Record<keyof SignupForm, string>>;

const EMPTY: SignupForm = { first_name: "", last_name: "", email: "", university_id: "", password: "", confirm: "" };

export function validateSignup(form: SignupForm): Errors {
  const errors: Errors = {};
  if (!form.first_name.trim()) errors.first_name = "First name is required";
  if (!form.last_name.trim()) errors.last_name = "Last name is required";
  if (!form.email.trim()) errors.email = "Email is required";
  else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email.trim())) errors.email = "Please enter a valid email address";
  if (!form.university_id) errors.university_id = "University is required";
  if (!form.password) errors.password = "Password is required";
  else if (form.password.length < LIMITS.passwordMin) errors.password = "Password must be at least 6 characters long";
  if (!form.confirm) errors.confirm = "Please confirm your password";
  else if (form.confirm !== form.password) errors.confirm = "Passwords do not match";
  return errors;
}

export function SignupPage() {
  const navigate = useNavigate();
  const [form, setForm] = useState<SignupForm>(EMPTY);
  const [invalid, setInvalid] = useState<Errors>({});
  const register = useRegister();
  const serverErrors: Errors = register.error instanceof ApiError && register.error.body?.errors ? Object.fromEntries(register.error.body.errors.map((e) => [e.path, e.message])) : {};
  const errors: Errors = { ...invalid, ...serverErrors };
  const formError = register.error && errorMessage(register.error, "Registration failed");
  const [verifyEmail, setVerifyEmail] = useState<string | null>(null);

  const field = (name: keyof SignupForm) => ({
    value: form[name],
    error: errors[name],
    onChange: (e: { target: { value: string } }) => setForm((f) => ({ ...f, [name]: e.target.value })),
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const found = validateSignup(form);
    setInvalid(found);
    register.reset();
    if (Object.keys(found).length) return;
    register.mutate(
      {
        email: form.email.trim(),
        password: form.password,
        first_name: form.first_name.trim(),
        last_name: form.last_name.trim(),
        university_id: Number(form.university_id),
      },
      { onSuccess: () => setVerifyEmail(form.email.trim().toLowerCase()) },
    );
  }

  return (
    <PageFrame title="Create your account" lead="Message others and create your own listings!" width="narrow">
      <section className="panel">
        <form onSubmit={onSubmit} noValidate className="stack">
          <div className="grid-2">
            <TextField label="First name" autoComplete="given-name" required {...field("first_name")} />
            <TextField label="Last name" autoComplete="family-name" required {...field("last_name")} />
          </div>
          <TextField label="Email" type="email" autoComplete="email" required {...field("email")} />
          <UniversitySelect
            required
            value={form.university_id}
            error={errors.university_id}
            emptyLabel="Choose your university"
            onChange={(v) => setForm((f) => ({ ...f, university_id: v }))}
          />
          <div className="grid-2">
            <TextField label="Password" type="password" autoComplete="new-password" required hint="At least 6 characters." {...field("password")} />
            <TextField label="Confirm password" type="password" autoComplete="new-password" required {...field("confirm")} />
          </div>
          <FormError message={formError} />
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
      <VerifyEmailDialog email={verifyEmail} onClose={() => setVerifyEmail(null)} onVerified={() => navigate(paths.home)} />
    </PageFrame>
  );
}
