import { Suspense } from "react";
import { Outlet, ScrollRestoration } from "react-router-dom";
import { Footer } from "../components/layout/footer";
import { Navbar } from "../components/layout/navbar";
import { PageLoadingInline } from "../components/ui/spinner";
import { SignInDialog } from "../features/auth/components/sign-in-dialog";
import { FeedbackWidget } from "../features/feedback/components/feedback-widget";
import { signInPrompt, useSignInPrompt } from "../lib/sign-in-prompt";

export function AppLayout() {
  const signIn = useSignInPrompt();
  return (
    <div className="app">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Navbar onSignIn={signInPrompt.open} />
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<PageLoadingInline label="Loading" />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <SignInDialog open={signIn.open} initialEmail={signIn.intent.email} onClose={signInPrompt.close} />
      <FeedbackWidget />
      <ScrollRestoration />
    </div>
  );
}
