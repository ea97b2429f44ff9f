import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { DELETE_ACCOUNT_CONFIRMATION } from "@contract/profile";
import { Dialog } from "../../../components/ui/dialog";
import { FormError, TextField } from "../../../components/ui/field";
import { useToast } from "../../../components/ui/toast";
import { paths } from "../../../config/paths";
import { useSession } from "../../../lib/session";
import { useOwnListings } from "../../../lib/own-listings-api";
import { useDeleteAccount } from "../api/profile-api";
import { profileErrorMessage, useSessionExpiry } from "../hooks/use-profile-errors";

/** "your 2 listings and their photos", nothing without listings, "your listings…" while the count loads. */
function listingsText(count: number | undefined): string {
  if (count === 0) return "";
  if (count === undefined) return " your listings and their photos,";
  return count === 1 ? " your 1 listing and its photos," : ` your ${count} listings and their photos,`;
}

/**
 * What happens to deals (contract: deleting keeps the signed names on the other party's records, docs/decisions/041);
 * a deal holding money refuses the deletion (409) and the server says which.
 */
const DEALS_TEXT =
  "Your deals: open requests and unsigned or unpaid deals are cancelled, and the other person is told. Signed agreements and receipts stay with the other person, still under the names you signed with; you lose your copies, so download any agreement PDF or receipt you need first. While CampusNest holds money for one of your deals, the account cannot be deleted.";

export function DeleteAccount() {
  const navigate = useNavigate();
  const { session, signOut } = useSession();
  const email = session?.user.email ?? "";
  // The dialog names what goes: the account by its email and the listings by number (the profile's
  // My listings has this answer already).
  const listings = useOwnListings().data?.length;
  const toast = useToast();
  const expireOn401 = useSessionExpiry();
  const remove = useDeleteAccount();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");

  function onDelete() {
    remove.mutate(undefined, {
      onSuccess: () => {
        signOut();
        navigate(paths.home);
        // The end is said where the person lands, long enough to read.
        toast.show(`Your account ${email} was deleted, with its listings, photos and favourites.`, { kind: "success", durationMs: 8000 });
      },
      onError: expireOn401,
    });
  }

  return (
    <>
      <button type="button" className="button button-danger" onClick={() => setOpen(true)}>
        Delete account
      </button>
      <Dialog
        open={open}
        alert
        onClose={() => {
          setOpen(false);
          setTyped("");
        }}
        size="sm"
        title="Delete your account?"
        description={`This deletes the account ${email} for good: your profile,${listingsText(listings)} your favourites and saved searches. Messages you sent stay, shown as from a deleted user. ${DEALS_TEXT}`}
        footer={
          <>
            <button type="button" className="button button-ghost" onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button type="button" className="button button-danger" disabled={typed !== DELETE_ACCOUNT_CONFIRMATION || remove.isPending} onClick={onDelete}>
              {remove.isPending ? "Deleting…" : "Delete forever"}
            </button>
          </>
        }
      >
        <TextField
          label={`Type ${DELETE_ACCOUNT_CONFIRMATION} to confirm`}
          value={typed}
          autoComplete="off"
          onChange={(e) => setTyped(e.target.value)}
          data-autofocus
        />
        <FormError message={remove.error && profileErrorMessage(remove.error, "Failed to delete account")} />
      </Dialog>
    </>
  );
}
