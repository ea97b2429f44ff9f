import { Suspense, useState } from "react";
import { Outlet } from "react-router-dom";
import { Footer } from "../components/layout/footer";
import { Navbar } from "../components/layout/navbar";
import { OfflineBanner } from "../components/layout/offline-banner";
import { deferred } from "../components/ui/deferred";
import { FeedbackButton } from "../features/feedback/components/feedback-button";
import { PageLoadingInline } from "../components/ui/spinner";
import { signInPrompt, useSignInPrompt } from "../lib/sign-in-prompt";
import { ScrollRestoration } from "./scroll-restoration";

// Off the first load (docs/decisions/023): the Sign In popup loads when it is first opened (a failed
// load closes it again, so the next click retries) or on a hover or focus of Sign In just before; the
// feedback form loads when its button is pressed (or pointed at).
const SignInDialog = deferred(() => import("../features/auth/components/sign-in-dialog").then((m) => m.SignInDialog), {
  onError: signInPrompt.close,
});
const FeedbackDialog = deferred(() => import("../features/feedback/components/feedback-widget").then((m) => m.FeedbackDialog));
const preloadSignIn = () => void SignInDialog.preload().catch(() => {});

export function AppLayout() {
  const signIn = useSignInPrompt();
  const [feedbackOpen, setFeedbackOpen] = useState(false);
  return (
    <div className="app">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <OfflineBanner />
      <Navbar onSignIn={signInPrompt.open} onSignInIntent={preloadSignIn} />
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<PageLoadingInline label="Loading" />}>
          <Outlet />
        </Suspense>
      </main>
      {/* Below the fold: hydrated after the page (docs/decisions/023). */}
      <Suspense>
        <Footer />
      </Suspense>
      <SignInDialog load={signIn.open} open={signIn.open} initialEmail={signIn.intent.email} onClose={signInPrompt.close} />
      <FeedbackButton onOpen={() => setFeedbackOpen(true)} onIntent={() => void FeedbackDialog.preload().catch(() => {})} />
      <FeedbackDialog load={feedbackOpen} open={feedbackOpen} onClose={() => setFeedbackOpen(false)} />
      <ScrollRestoration />
    </div>
  );
}
