import { isListingOwner } from "@contract/policies";
import { useToast } from "./ui/toast";
import { useFavoriteIds, useToggleFavorite } from "../lib/listings-api";
import { useSession } from "../lib/session";
import { useSignInHere } from "../lib/sign-in-prompt";

interface FavoriteButtonProps {
  listingId: string;
  ownerId: string;
  large?: boolean;
  /** Browse cards show the heart to visitors too; tapping it asks them to sign in (the listing page hides it from visitors). */
  visibleToVisitors?: boolean;
}

/** Heart toggle (hidden on one's own listing). A visitor's tap signs them in, then favourites the listing. */
export function FavoriteButton({ listingId, ownerId, large, visibleToVisitors }: FavoriteButtonProps) {
  const { session } = useSession();
  const toast = useToast();
  const signInHere = useSignInHere();
  const favorites = useFavoriteIds(!!session);
  const toggle = useToggleFavorite({
    success: (removed) => toast.show(removed ? "Removed from favorites" : "Added to favorites", { kind: "success", durationMs: 2000 }),
    error: () => toast.show("Failed to update favorites", { kind: "error", durationMs: 3000 }),
  });
  if (session ? isListingOwner(session.user, { user_id: ownerId }) : !visibleToVisitors) return null;
  const active = favorites.data?.has(listingId) ?? false;
  const label = active ? "Remove from favorites" : "Add to favorites";

  function onClick(event: React.MouseEvent) {
    event.preventDefault();
    event.stopPropagation();
    if (!session) {
      // Adding is idempotent on the server: a listing already favourited stays so.
      signInHere({ prompt: "Please log in to add favorites", afterSignIn: () => toggle.mutate({ listingId, active: false }) });
      return;
    }
    toggle.mutate({ listingId, active });
  }

  return (
    <button
      type="button"
      className={`favorite-button${active ? " is-active" : ""}${large ? " favorite-large" : ""}`}
      // The heart alone has its name as a label; the large button says it in its visible text.
      aria-label={large ? undefined : label}
      disabled={toggle.isPending}
      onClick={onClick}
    >
      <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true">
        <path
          d="M12 21s-7.5-4.6-9.5-9.2C1.2 8.6 3.3 5 6.8 5c2 0 3.4 1.1 4.2 2.3C11.8 6.1 13.2 5 15.2 5c3.5 0 5.6 3.6 4.3 6.8C17.5 16.4 12 21 12 21z"
          fill={active ? "currentColor" : "none"}
          stroke="currentColor"
          strokeWidth="2"
        />
      </svg>
      {large && <span>{label}</span>}
    </button>
  );
}
