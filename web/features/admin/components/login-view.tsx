import { useState, type FormEvent } from "react";
import { adminSession } from "../api/admin-api";
import { useAdminLogin } from "../api/admin-mutations";

export function LoginView() {
  const [password, setPassword] = useState("");
  const login = useAdminLogin();
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!password) return;
    // Spec: a wrong or failed login shows nothing and clears the field.
    login.mutate(password, { onError: () => setPassword("") });
  }
  return (
    <main className="admin-login">
      <h1 className="visually-hidden">Admin Panel</h1>
      {adminSession.expired() && (
        <p className="form-error" role="alert">
          Session expired. Please log in again.
        </p>
      )}
      <form onSubmit={onSubmit} className="admin-login-form" aria-label="Admin sign in">
        <label className="visually-hidden" htmlFor="admin-password">
          Admin password
        </label>
        <input id="admin-password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} autoFocus />
        <button type="submit" className="button button-primary" aria-label="Sign in" disabled={login.isPending}>
          →
        </button>
      </form>
    </main>
  );
}
