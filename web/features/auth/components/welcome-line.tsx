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
  return {
    to: universityId ? { pathname: paths.home, search: `?university=${universityId}` } : paths.home,
    state: { welcome: { firstName: user.first_name, university: user.university } },
  };
}

/** The one-line welcome on browse after sign-up: announced politely, dismissible. */
export function WelcomeLine() {
  const location = useLocation();
  const navigate = useNavigate();
  const state: unknown = location.state;
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
