import { useEffect, useRef, useState, type FormEvent } from "react";
import { ApiError, errorMessage } from "../../../lib/api-client";
import { adminSession } from "../api/admin-api";
import { useAdminLogin } from "../api/admin-mutations";

/** "45 seconds", "1 second", "3 minutes": the wait the API's 429 names (its retry_after). */
export function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} ${seconds === 1 ? "second" : "seconds"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}

/** What a failed sign-in says: a wrong password, a throttle with its real wait, or why it could not be checked. */
function failureText(err: unknown): { text: string; waitSeconds: number } {
  if (err instanceof ApiError && err.status === 401) return { text: "Wrong password", waitSeconds: 0 };
  if (err instanceof ApiError && err.status === 429) {
    const seconds = Math.max(1, Math.ceil(err.body?.retry_after ?? 60));
    return { text: `Too many sign-in attempts. Try again in ${waitText(seconds)}.`, waitSeconds: seconds };
  }
  if (err instanceof ApiError && err.isNetworkError) return { text: "Could not reach the server. Check your connection and try again.", waitSeconds: 0 };
  return { text: `Could not sign in: ${errorMessage(err)}`, waitSeconds: 0 };
}

/**
 * The staff sign-in: a heading, a visible label, and an announced answer to every
 * failed try. A failed try clears the field (the product's rule); focus goes back to it. While the
 * API throttles, the button waits out the time it named.
 */
export function LoginView() {
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [waitUntil, setWaitUntil] = useState(0);
  const field = useRef<HTMLInputElement>(null);
  const login = useAdminLogin();
  // Set when the API throttles, cleared by the timer below once the wait is over.
  const waiting = waitUntil > 0;

  // Re-render when the throttle's wait is over: the button comes back and the message goes.
  useEffect(() => {
    if (!waitUntil) return;
    const ms = waitUntil - Date.now();
    const timer = window.setTimeout(() => {
      setWaitUntil(0);
      setError(null);
    }, Math.max(0, ms));
    return () => window.clearTimeout(timer);
  }, [waitUntil]);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (waiting) return;
    if (!password) {
      setError("Enter the admin password");
      field.current?.focus();
      return;
    }
    setError(null);
    login.mutate(password, {
      onError: (err) => {
        const failure = failureText(err);
        setPassword("");
        setError(failure.text);
        setWaitUntil(failure.waitSeconds ? Date.now() + failure.waitSeconds * 1000 : 0);
        field.current?.focus();
      },
    });
  }
  const sessionExpired = adminSession.expired() && !error;
  return (
    <main className="admin-login">
      <form onSubmit={onSubmit} className="panel admin-login-card" aria-labelledby="admin-login-heading" noValidate>
        <h1 id="admin-login-heading" className="admin-login-heading">
          Staff sign-in
        </h1>
        {sessionExpired && (
          <p className="form-error" role="alert">
            Session expired. Please log in again.
          </p>
        )}
        <label className="admin-login-label" htmlFor="admin-password">
          Admin password
        </label>
        <div className="admin-login-form">
          <input
            id="admin-password"
            ref={field}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "admin-login-error" : undefined}
            autoFocus
          />
          <button type="submit" className="button button-primary" disabled={login.isPending || waiting}>
            Sign in
          </button>
        </div>
        <p id="admin-login-error" className="form-error admin-login-error" role="alert">
          {error}
        </p>
      </form>
    </main>
  );
}
