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

type RequireSignedInProps = {
  children: ReactNode;
  /** What the page says to a visitor, with a Sign In button (a general line when left out). */
  visitorMessage?: string;
  /**
   * @deprecated Ignored: every signed-in page now explains itself to a visitor and
   * offers Sign In in place, instead of some pages sending visitors silently to /.
   */
  redirectVisitorsHome?: boolean;
};

/** What a locked page says to a visitor when the route gives no line of its own. */
const defaultVisitorMessages: Record<string, string> = {
  [paths.favorites]: "Please log in to see your favorites.",
  [paths.billing]: "Please log in to see your promotions and billing.",
};

/**
 * Signed-in pages (docs/product-rules.md "Pages and who may open them"). One behaviour for every locked page: a visitor stays on the
 * address they opened, reads why the page is locked, and gets Sign In (which comes back here) and Go
 * to Home; the Sign In popup also opens on arrival.
 */
export function RequireSignedIn({ children, visitorMessage }: RequireSignedInProps) {
  const { session } = useSession();
  const location = useLocation();
  useSignInOnArrival();
  if (session) return <>{children}</>;
  const message = visitorMessage ?? defaultVisitorMessages[location.pathname] ?? "Please log in to see this page.";
  return <SignInRequired title="Sign in to continue" message={message} />;
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
