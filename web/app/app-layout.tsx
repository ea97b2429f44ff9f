import { Suspense } from "react";
import { Outlet, ScrollRestoration } from "react-router-dom";
import { Footer } from "../components/layout/footer";
import { Navbar } from "../components/layout/navbar";
import { SignInDialog } from "../features/auth/components/sign-in-dialog";
import { signInPrompt, useSignInPrompt } from "../lib/sign-in-prompt";

export function PageLoading() {
  return (
    <div className="page-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">Loading…</span>
    </div>
  );
}

export function AppLayout() {
  const signInOpen = useSignInPrompt();
  return (
    <div className="app">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Navbar onSignIn={signInPrompt.open} />
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <SignInDialog open={signInOpen} onClose={signInPrompt.close} />
      <ScrollRestoration />
    </div>
  );
}
