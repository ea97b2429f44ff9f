import { useEffect, useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import type { PrivateUser } from "@contract/users";
import { TIMINGS } from "@contract/constants";
import { REVIEW_TIME } from "@contract/waits";
import { canCreateListing } from "@contract/policies";
import { paths } from "../../config/paths";
import { useSession } from "../../lib/session";
import { useTheme } from "../../lib/theme";
import { useUnreadCount } from "../../lib/unread";
import { Avatar, formatBadgeCount } from "../ui/avatar";
import { Dialog } from "../ui/dialog";
import { DropdownMenu } from "../ui/dropdown-menu";
import { iconBase } from "../ui/icons";

/** Create listing's plus (only the signed-in navbar shows it: not in ui/icons.tsx, which the home page loads). */
const PlusIcon = () => (
  <svg {...iconBase}>
    <path d="M12 5v14M5 12h14" />
  </svg>
);

/**
 * A signed-in student's navbar actions: New Listing (or the "must be verified" popup) and the avatar
 * menu with the unread badge. Its own chunk (navbar.tsx): a visitor's first load never carries it (docs/decisions/023).
 */
export function AccountActions({ user }: { user: PrivateUser }) {
  const { signOut } = useSession();
  // Unread messages on the avatar (99+ above 99): live from the inbox room, polled while it is closed.
  const unreadCount = useUnreadCount(user.id);
  const { dark, toggle } = useTheme();
  const navigate = useNavigate();
  const [gateOpen, setGateOpen] = useState(false);
  // A document sent and waiting: say so, rather than ask for one again.
  const underReview = user.id_verification_status === "pending";

  // The "must be verified" popup closes by itself after 3 s.
  useEffect(() => {
    if (!gateOpen) return;
    const timer = window.setTimeout(() => setGateOpen(false), TIMINGS.verificationPopupMs);
    return () => window.clearTimeout(timer);
  }, [gateOpen]);

  return (
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
          { label: "Billing", onSelect: () => navigate(paths.billing) },
          // The unread count also on the item itself, read as "Messages (3 unread)".
          { label: <MessagesLabel count={unreadCount} />, onSelect: () => navigate(paths.messages()) },
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
      <Dialog
        open={gateOpen}
        onClose={() => setGateOpen(false)}
        size="sm"
        title={underReview ? "Your ID check is under review" : "You must be verified to create a listing"}
        description={underReview ? `Staff review it within ${REVIEW_TIME}; you can create listings once it is approved, and we'll email you.` : `Verify your identity once; it takes ${REVIEW_TIME} to review.`}
        footer={
          <Link to={paths.verification} className="button button-primary" onClick={() => setGateOpen(false)}>
            {underReview ? "See its status" : "Get Verified"}
          </Link>
        }
      />
    </>
  );
}

/** "Messages" with the unread count as a pill (99+ above 99); named "Messages (N unread)" for screen readers. */
function MessagesLabel({ count }: { count: number }) {
  const text = formatBadgeCount(count);
  if (!text) return <>Messages</>;
  return (
    <>
      Messages{" "}
      <span className="menu-count" aria-hidden="true">
        {text}
      </span>
      <span className="visually-hidden">{` (${text} unread)`}</span>
    </>
  );
}
