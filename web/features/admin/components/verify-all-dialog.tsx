import { useState } from "react";
import { Dialog } from "../../../components/ui/dialog";
import { TextField } from "../../../components/ui/field";

const listingsWord = (count: number) => (count === 1 ? "listing" : "listings");

/**
 * Approving every pending listing at once: the dialog names how many go live and
 * asks for that number typed back; Approve stays disabled until it matches.
 */
export function VerifyAllDialog({ count, open, onClose, onConfirm }: { count: number; open: boolean; onClose: () => void; onConfirm: () => void }) {
  const [typed, setTyped] = useState("");
  const matches = typed.trim() === String(count);
  const close = () => {
    setTyped("");
    onClose();
  };
  return (
    <Dialog
      open={open}
      alert
      onClose={close}
      size="sm"
      title={`Approve all ${count} pending ${listingsWord(count)}?`}
      description={`Each one goes live on the site at once, without its own review. Type ${count} to confirm.`}
      footer={
        <>
          <button type="button" className="button button-ghost" onClick={close}>
            Cancel
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={!matches}
            onClick={() => {
              close();
              onConfirm();
            }}
          >
            Approve all {count}
          </button>
        </>
      }
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!matches) return;
          close();
          onConfirm();
        }}
      >
        <TextField
          label={`Type ${count} to confirm`}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          inputMode="numeric"
          autoComplete="off"
          data-autofocus
        />
      </form>
    </Dialog>
  );
}
