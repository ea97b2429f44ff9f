import { useState } from "react";
import { ReportDialog } from "../../../components/report-dialog";
import { Dialog } from "../../../components/ui/dialog";
import { FormError } from "../../../components/ui/field";
import { useToast } from "../../../components/ui/toast";
import { errorMessage } from "../../../lib/api-client";
import { useBlockUser } from "../../../lib/reports-blocks-api";

/**
 * The thread header's 'Report user' and 'Block' (issue 13). Blocking asks first; once done the
 * conversation leaves the list and `onBlocked` closes the thread.
 */
export function ThreadSafetyActions({ userId, name, conversationId, onBlocked }: { userId: string; name: string; conversationId: string; onBlocked: () => void }) {
  const [reporting, setReporting] = useState(false);
  const [blocking, setBlocking] = useState(false);
  const toast = useToast();
  const block = useBlockUser(() => {
    setBlocking(false);
    toast.show(`You blocked ${name}.`, { kind: "success" });
    onBlocked();
  });
  return (
    <div className="thread-safety">
      <button type="button" className="button button-ghost" onClick={() => setReporting(true)}>
        Report user
      </button>
      <button type="button" className="button button-ghost" onClick={() => setBlocking(true)}>
        Block
      </button>
      <ReportDialog open={reporting} onClose={() => setReporting(false)} title={`Report ${name}`} target={{ kind: "user", user_id: userId, conversation_id: conversationId }} />
      <Dialog
        open={blocking}
        alert
        size="sm"
        onClose={() => {
          block.reset();
          setBlocking(false);
        }}
        title={`Block ${name}?`}
        description={`${name} will no longer be able to send you messages, and this conversation leaves your list. You can unblock them from your profile.`}
        footer={
          <>
            <button type="button" className="button button-ghost" onClick={() => setBlocking(false)}>
              Cancel
            </button>
            <button type="button" className="button button-danger" disabled={block.isPending} onClick={() => block.mutate(userId)}>
              {block.isPending ? "Blocking…" : "Block"}
            </button>
          </>
        }
      >
        {block.isError && <FormError message={errorMessage(block.error, "Could not block. Please try again.")} />}
      </Dialog>
    </div>
  );
}
