import { useState } from "react";
import { Link, useLocation } from "react-router-dom";
import { paths } from "../../config/paths";
import { useSession } from "../../lib/session";
import { deferred } from "../ui/deferred";
import { Logo } from "../ui/logo";

// Off the visitor's first load (docs/decisions/023): a signed-in student's actions load with their session, the
// Get Started popup when it is wanted (or on a hover or focus before the tap).
const AccountActions = deferred(() => import("./account-actions").then((m) => m.AccountActions));
const WelcomeDialog = deferred(() => import("./welcome-dialog").then((m) => m.WelcomeDialog));

interface NavbarProps {
  onSignIn: () => void;
  /** A pointer or focus on Sign In: its popup's code starts loading. */
  onSignInIntent?: () => void;
}

const preloadWelcome = () => void WelcomeDialog.preload().catch(() => {});

export function Navbar({ onSignIn, onSignInIntent }: NavbarProps) {
  const { session } = useSession();
  const { pathname } = useLocation();
  const [welcomeOpen, setWelcomeOpen] = useState(false);
  const user = session?.user;
  return (
    <header className="navbar">
      <nav className="navbar-inner container" aria-label="Main">
        <Link to={paths.home} className="brand" aria-label="CampusNest home">
          <Logo />
          <span className="brand-name">CampusNest</span>
        </Link>
        <div className="navbar-actions">
          {user ? (
            <AccountActions load user={user} />
          ) : (
            <>
              {pathname !== paths.signup && (
                <button
                  type="button"
                  className="button button-primary"
                  onPointerEnter={preloadWelcome}
                  onFocus={preloadWelcome}
                  onTouchStart={preloadWelcome}
                  onClick={() => setWelcomeOpen(true)}
                >
                  Get Started
                </button>
              )}
              <button
                type="button"
                className="button button-ghost"
                onPointerEnter={onSignInIntent}
                onFocus={onSignInIntent}
                onTouchStart={onSignInIntent}
                onClick={onSignIn}
              >
                Sign In
              </button>
            </>
          )}
        </div>
      </nav>
      <WelcomeDialog load={welcomeOpen} open={welcomeOpen} onClose={() => setWelcomeOpen(false)} />
    </header>
  );
}
