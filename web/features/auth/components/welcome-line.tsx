import { useEffect } from "react";
import { useLocation, useNavigate, type To } from "react-router-dom";
import type { PrivateUser } from "@contract/users";
import { paths } from "../../../config/paths";

interface Welcome {
  firstName: string;
  university: string | null;
}

const isWelcome = (state: unknown): state is { welcome: Welcome } =>
  typeof state === "object" && state !== null && "welcome" in state;

/**
 * Where a new student goes once their email code is accepted: browse, filtered to the university
 * chosen at sign-up (the server made it their preferred one), greeted by WelcomeLine.
 */
export function welcomeDestination(user: PrivateUser): { to: To; state: { welcome: Welcome } } {
  const universityId = user.preferred_university_id ?? user.university_id;
  const search = universityId ? `?university=${universityId}` : "";
  const welcome = { firstName: user.first_name, university: user.university };
  pending = { search, welcome, at: Date.now() };
  return { to: search ? { pathname: paths.home, search } : paths.home, state: { welcome } };
}

/**
 * The welcome just handed out, kept for a few seconds (issue 25, item 9): if anything between the
 * code and browse drops the navigation's state (a guard sending the now signed-in student to a bare
 * /), browse still opens filtered and greeted.
 */
let pending: { search: string; welcome: Welcome; at: number } | null = null;
const PENDING_MS = 10_000;

/** The one-line welcome on browse after sign-up: announced politely, dismissible. */
export function WelcomeLine() {
  const location = useLocation();
  const navigate = useNavigate();
  const state: unknown = location.state;
  const greeted = isWelcome(state);
  useEffect(() => {
    const waiting = pending;
    pending = null;
    if (greeted || !waiting || Date.now() - waiting.at > PENDING_MS) return;
    navigate({ pathname: location.pathname, search: location.search || waiting.search }, { replace: true, state: { welcome: waiting.welcome } });
  }, [greeted, location.pathname, location.search, navigate]);
  if (!isWelcome(state)) return null;
  const { firstName, university } = state.welcome;
  return (
    <div className="container">
      <p className="welcome-line" role="status">
        <span>
          Welcome to CampusNest, {firstName}!{university ? ` Showing listings near ${university}.` : ""}
        </span>
        <button
          type="button"
          className="icon-button"
          aria-label="Dismiss welcome"
          // Keeps the filters, forgets the welcome (also on reload and Back).
          onClick={() => navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: null })}
        >
          <span aria-hidden="true">×</span>
        </button>
      </p>
    </div>
  );
}
