import { useState } from "react";
import { deferred } from "../../../components/ui/deferred";
import { useSession } from "../../../lib/session";
import { useSignInHere } from "../../../lib/sign-in-prompt";
import type { RequestDealTarget } from "./request-deal-dialog";

/** The form loads when it is first opened, off the listing page's and the thread's first load. */
const RequestDealDialog = deferred(() => import("./request-deal-dialog").then((m) => m.RequestDealDialog));

export type RequestDealProps = RequestDealTarget & {
  /** In the conversation, under the listing's link: a quieter button, and the sent request points to the card there. */
  compact?: boolean;
};

/**
 * "Request to sublease": a renter picks the stay and sends the request. Visitors sign in first and
 * come back to the open form; the owner never sees it (the pages leave it out).
 */
export function RequestDeal({ listing, onSent, compact }: RequestDealProps) {
  const { session } = useSession();
  const signInHere = useSignInHere();
  const [open, setOpen] = useState(false);
  // Each opening starts a fresh form (a sent request's confirmation does not come back).
  const [round, setRound] = useState(0);
  const show = () => {
    setRound((r) => r + 1);
    setOpen(true);
  };
  if (session?.user.id === listing.user_id) return null;
  return (
    <>
      <button
        type="button"
        className={`button ${compact ? "button-ghost" : "button-primary"}`}
        onMouseEnter={() => void RequestDealDialog.preload().catch(() => undefined)}
        onClick={() => (session ? show() : signInHere({ afterSignIn: show }))}
      >
        Request to sublease
      </button>
      {session && <RequestDealDialog key={round} load={open} open={open} onClose={() => setOpen(false)} listing={listing} onSent={onSent} inThread={compact} />}
    </>
  );
}
