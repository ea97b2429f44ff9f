import { useState } from "react";
import { LIMITS } from "@contract/limits";
import { Dialog } from "./dialog";
import { TextAreaField } from "./field";

const REASON_REQUIRED = "Please provide a reason for rejection";

/** Asks for a rejection reason (required, at most 500 characters) before `onSubmit` runs. */
export function ReasonDialog({ title, open, onClose, onSubmit }: { title: string; open: boolean; onClose: () => void; onSubmit: (reason: string) => void }) {
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog open={open} onClose={onClose} size="sm" title={title}>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          if (!reason.trim()) return setError(REASON_REQUIRED);
          onSubmit(reason.trim());
          setReason("");
        }}
      >
        <TextAreaField
          label="Reason"
          rows={3}
          maxLength={LIMITS.rejectionReasonMax}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          error={error}
          data-autofocus
        />
        <button type="submit" className="button button-danger">
          Reject
        </button>
      </form>
    </Dialog>
  );
}
