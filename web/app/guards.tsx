import { useEffect, useState, type ReactNode } from "react";
import { Navigate, useLocation } from "react-router-dom";
import { SignInRequired } from "../components/sign-in-required";
import { paths } from "../config/paths";
import { useSession } from "../lib/session";
import { signInPrompt } from "../lib/sign-in-prompt";

/**
 * A visitor who opens a signed-in page is asked to sign in, not silently bounced: the Sign In popup
 * opens, and signing in lands them on the page they asked for (query string included). Only on
 * arrival: signing out on the page does not reopen it.
 */
export function useSignInOnArrival(): string {
  const { session } = useSession();
  const location = useLocation();
  const returnTo = location.pathname + location.search + location.hash;
  const [arrivedSignedOut] = useState(() => !session);
  useEffect(() => {
    if (arrivedSignedOut && !session) signInPrompt.openFor({ returnTo });
  }, [arrivedSignedOut, session, returnTo]);
  return returnTo;
}

/** For pages that explain themselves to visitors (/create, /promote): opens the popup on arrival. */
export function SignInOnArrival() {
  useSignInOnArrival();
  return null;
}

type RequireSignedInProps = { children: ReactNode } & (
  /** What the page says to a visitor, with a Sign In button. */
  | { visitorMessage: string; redirectVisitorsHome?: never }
  /** The spec sends visitors of /favorites and /billing to /: the popup opens there. */
  | { redirectVisitorsHome: true; visitorMessage?: never }
);

/** Signed-in pages (spec route table). */
export function RequireSignedIn({ children, visitorMessage, redirectVisitorsHome }: RequireSignedInProps) {
  const { session } = useSession();
  useSignInOnArrival();
  if (session) return <>{children}</>;
  if (redirectVisitorsHome) return <Navigate to={paths.home} replace />;
  return <SignInRequired title="Sign in to continue" message={visitorMessage!} />;
}

/**
 * Visitor-only pages (sign up): signed-in users are sent to the home page. Someone who signs in on
 * the page is sent on by the page itself (a new student to their university's listings).
 */
export function RequireVisitor({ children }: { children: ReactNode }) {
  const { session } = useSession();
  const [arrivedSignedIn] = useState(() => !!session);
  return session && arrivedSignedIn ? <Navigate to={paths.home} replace /> : <>{children}</>;
}
