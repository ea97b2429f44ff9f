import { useState } from "react";
import { Dialog } from "../../../components/ui/dialog";
import { TextField } from "../../../components/ui/field";
import type { AdminListing } from "@contract/admin";

const CONFIRM_WORD = "CONFIRM";

/** Deleting needs the typed word CONFIRM; anything else gets the product's alert. */
export function DeleteListingDialog({ listing, onClose, onDelete }: { listing: AdminListing | null; onClose: () => void; onDelete: (listing: AdminListing) => void }) {
  const [confirmText, setConfirmText] = useState("");
  const close = () => {
    setConfirmText("");
    onClose();
  };
  return (
    <Dialog
      open={listing !== null}
      alert
      onClose={close}
      size="sm"
      title="Delete this listing?"
      description="This cannot be undone. Type CONFIRM to delete it and its photos."
      footer={
        <button
          type="button"
          className="button button-danger"
          onClick={() => {
            if (confirmText !== CONFIRM_WORD) return window.alert('Please type "CONFIRM" to proceed with deletion');
            const l = listing!;
            close();
            onDelete(l);
          }}
        >
          Delete
        </button>
      }
    >
      <TextField label="Type CONFIRM" value={confirmText} onChange={(e) => setConfirmText(e.target.value)} autoComplete="off" data-autofocus />
    </Dialog>
  );
}
