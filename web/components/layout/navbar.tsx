import { useEffect, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router-dom";
import { TIMINGS } from "@contract/constants";
import { canCreateListing } from "@contract/policies";
import { paths } from "../../config/paths";
import { useSession } from "../../lib/session";
import { useTheme } from "../../lib/theme";
import { useUnreadCount } from "../../lib/unread";
import { Avatar } from "../ui/avatar";
import { Dialog } from "../ui/dialog";
import { DropdownMenu } from "../ui/dropdown-menu";
import { PlusIcon, ShieldIcon } from "../ui/icons";
import { Logo } from "../ui/logo";

interface NavbarProps {
  onSignIn: () => void;
}

export function Navbar({ onSignIn }: NavbarProps) {
  const { session, signOut } = useSession();
  // Unread messages on the avatar (99+ above 99): live from the inbox room, polled while it is closed.
  const unreadCount = useUnreadCount(session?.user.id);
  const { dark, toggle } = useTheme();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [welcomeOpen, setWelcomeOpen] = useState(false);
  const [gateOpen, setGateOpen] = useState(false);

  // The "must be verified" popup closes by itself after 3 s.
  useEffect(() => {
    if (!gateOpen) return;
    const timer = window.setTimeout(() => setGateOpen(false), TIMINGS.verificationPopupMs);
    return () => window.clearTimeout(timer);
  }, [gateOpen]);

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
            <>
              <button
                type="button"
                className="button button-primary"
                aria-label="New Listing"
                onClick={() => {
                  if (canCreateListing(user)) navigate(paths.create);
                  else setGateOpen(true);
                }}
              >
                <PlusIcon />
                <span className="hide-narrow" aria-hidden="true">
                  New Listing
                </span>
              </button>
              <DropdownMenu
                triggerLabel="Account menu"
                triggerClassName="avatar-button"
                trigger={
                  <Avatar
                    src={user.avatar_url}
                    firstName={user.first_name}
                    lastName={user.last_name}
                    badge={unreadCount}
                  />
                }
                items={[
                  { label: "My Profile", onSelect: () => navigate(paths.profile) },
                  { label: "Favorites", onSelect: () => navigate(paths.favorites) },
                  { label: "Messages", onSelect: () => navigate(paths.messages()) },
                  { label: dark ? "Light mode" : "Dark mode", onSelect: toggle, keepOpen: true },
                  {
                    label: "Sign Out",
                    onSelect: () => {
                      signOut();
                      navigate(paths.home);
                    },
                  },
                ]}
              />
            </>
          ) : (
            <>
              {pathname !== paths.signup && (
                <button type="button" className="button button-primary" onClick={() => setWelcomeOpen(true)}>
                  Get Started
                </button>
              )}
              <button type="button" className="button button-ghost" onClick={onSignIn}>
                Sign In
              </button>
            </>
          )}
        </div>
      </nav>

      <Dialog
        open={welcomeOpen}
        onClose={() => setWelcomeOpen(false)}
        title="Welcome to CampusNest"
        description="The trusted student-housing platform: verified sublease listings from verified students."
        footer={
          <>
            <button type="button" className="button button-ghost" onClick={() => setWelcomeOpen(false)}>
              Browse listings
            </button>
            <Link to={paths.signup} className="button button-primary" onClick={() => setWelcomeOpen(false)}>
              Create an account
            </Link>
          </>
        }
      >
        <ul className="feature-list">
          <li>
            <ShieldIcon /> Every lister verifies their identity with a student ID or government document.
          </li>
          <li>
            <ShieldIcon /> Every listing is reviewed by our team before it goes live (typically 24-48 hours).
          </li>
          <li>
            <ShieldIcon /> Message owners safely inside CampusNest: never pay a deposit before you see the place.
          </li>
        </ul>
      </Dialog>

      <Dialog
        open={gateOpen}
        onClose={() => setGateOpen(false)}
        size="sm"
        title="You must be verified to create a listing"
        description="Verify your identity once; it takes 24-48 hours to review."
        footer={
          <Link to={paths.verification} className="button button-primary" onClick={() => setGateOpen(false)}>
            Get Verified
          </Link>
        }
      />
    </header>
  );
}
