import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { DELETE_ACCOUNT_CONFIRMATION } from "@contract/profile";
import { Dialog } from "../../../components/ui/dialog";
import { FormError, TextField } from "../../../components/ui/field";
import { useToast } from "../../../components/ui/toast";
import { paths } from "../../../config/paths";
import { useSession } from "../../../lib/session";
import { useDeleteAccount } from "../api/profile-api";
import { profileErrorMessage, useSessionExpiry } from "../hooks/use-profile-errors";

export function DeleteAccount() {
  const navigate = useNavigate();
  const { signOut } = useSession();
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
        toast.show("Your account was deleted.", { kind: "success", durationMs: 4000 });
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
        description="This removes your profile, listings, photos and favourites for good. Messages you sent stay, shown as from a deleted user."
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
