import { Suspense, useEffect } from "react";
import { Outlet, ScrollRestoration } from "react-router-dom";
import { Footer } from "../components/layout/footer";
import { Navbar } from "../components/layout/navbar";
import { deferred, whenIdle } from "../components/ui/deferred";
import { PageLoadingInline } from "../components/ui/spinner";
import { useSession } from "../lib/session";
import { signInPrompt, useSignInPrompt } from "../lib/sign-in-prompt";

// Off the first paint (issue 14): the Sign In popup loads when it is first opened (a failed load
// closes it again, so the next click retries) or, for a visitor, once the page is idle, so that
// Sign In opens at once; the feedback pill loads when the page is idle.
const SignInDialog = deferred(() => import("../features/auth/components/sign-in-dialog").then((m) => m.SignInDialog), {
  onError: signInPrompt.close,
});
const FeedbackWidget = deferred(() => import("../features/feedback/components/feedback-widget").then((m) => m.FeedbackWidget), {
  when: "idle",
});

export function AppLayout() {
  const signIn = useSignInPrompt();
  const signedIn = useSession().session !== null;
  useEffect(() => {
    if (signedIn) return;
    return whenIdle(() => void SignInDialog.preload().catch(() => {}));
  }, [signedIn]);
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
      <SignInDialog load={signIn.open} open={signIn.open} initialEmail={signIn.intent.email} onClose={signInPrompt.close} />
      <FeedbackWidget />
      <ScrollRestoration />
    </div>
  );
}
