/** On the listing page (docs/decisions/015): fresh listings (confirmation, paused), the price check (the owner's response time is with the other checks: components/ui/trust-checks). */
import { Link } from "react-router-dom";
import { availabilityConfirmedText } from "@contract/constants";
import { FRESHNESS } from "@contract/waits";
import { useToast } from "../../../components/ui/toast";
import { paths } from "../../../config/paths";
import { errorMessage } from "../../../lib/api-client";
import { useConfirmAvailability } from "../../../lib/own-listings-api";

/** "Availability confirmed today / N days ago", or nothing when it never was. */
export function AvailabilityConfirmed({ at }: { at: string | null | undefined }) {
  const text = availabilityConfirmedText(at);
  return text ? <p className="availability-confirmed muted">{text}</p> : null;
}

/** The owner's own paused listing: why only they see it, and the one click that brings it back. */
export function PausedNotice({ listingId }: { listingId: string }) {
  const confirm = useConfirmAvailability();
  const toast = useToast();
  return (
    <div className="panel notice notice-pending paused-notice">
      <p>
        Paused: you have not confirmed for {FRESHNESS.pauseAfterDays} days that this place is still available, so only you can see
        it.
      </p>
      <button
        type="button"
        className="button button-primary"
        disabled={confirm.isPending}
        onClick={() =>
          confirm.mutate(listingId, {
            onSuccess: () => toast.show("Thanks! Your listing is back in search results.", { kind: "success" }),
            onError: (err) => toast.show(errorMessage(err, "Failed to update listing. Please try again."), { kind: "error", durationMs: 3000 }),
          })
        }
      >
        Confirm availability
      </button>
    </div>
  );
}

/** The price check, for renters: a rent far below similar places is a classic scam bait. */
export function BelowTypicalRent() {
  return (
    <p className="panel notice notice-pending below-typical" role="note">
      Below typical rent for similar places: see it before you pay anything. <Link to={paths.safety}>How to stay safe</Link>
    </p>
  );
}
