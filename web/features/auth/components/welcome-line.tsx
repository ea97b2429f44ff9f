import { useEffect } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { isWelcome, takePendingWelcome } from "../lib/welcome";

/** The one-line welcome on browse after sign-up: announced politely, dismissible. */
export function WelcomeLine() {
  const location = useLocation();
  const navigate = useNavigate();
  const state: unknown = location.state;
  const greeted = isWelcome(state);
  useEffect(() => {
    const waiting = takePendingWelcome();
    if (greeted || !waiting) return;
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
