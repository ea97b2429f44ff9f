import { useState } from "react";
import { MOBILE_BREAKPOINT_PX } from "@contract/constants";
import { BLOCK_TEXTS } from "@contract/messaging-rules";
import { ReportDialog } from "../../../components/report-dialog";
import { Dialog } from "../../../components/ui/dialog";
import { DropdownMenu } from "../../../components/ui/dropdown-menu";
import { FormError } from "../../../components/ui/field";
import { useToast } from "../../../components/ui/toast";
import { errorMessage } from "../../../lib/api-client";
import { useBlockUser, useUnblockUser } from "../../../lib/reports-blocks-api";
import { useMediaQuery } from "../../../lib/use-media-query";

/**
 * The thread header's 'Report user' and 'Block' (docs/decisions/015). Blocking asks first; once done the
 * conversation leaves the list and `onBlocked` closes the thread. With someone already blocked
 * (`blocked`) only Report shows: the thread offers Unblock in place of the composer. On a phone both sit
 * behind one menu button, so the header keeps to one line.
 */
export function ThreadSafetyActions({
  userId,
  name,
  conversationId,
  onBlocked,
  blocked = false,
}: {
  userId: string;
  name: string;
  conversationId: string;
  onBlocked: () => void;
  blocked?: boolean;
}) {
  const phone = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`);
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
      {phone ? (
        <DropdownMenu
          trigger={<span aria-hidden="true">⋯</span>}
          triggerLabel={`More actions for ${name}`}
          triggerClassName="button button-ghost thread-menu"
          items={[
            { label: "Report user", onSelect: () => setReporting(true) },
            ...(blocked ? [] : [{ label: "Block", onSelect: () => setBlocking(true) }]),
          ]}
        />
      ) : (
        <>
          <button type="button" className="button button-ghost" onClick={() => setReporting(true)}>
            Report user
          </button>
          {!blocked && (
            <button type="button" className="button button-ghost" onClick={() => setBlocking(true)}>
              Block
            </button>
          )}
        </>
      )}
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
        description={`${name} will no longer be able to send you messages, and you can't message them until you unblock them. This conversation leaves your list. You can unblock them from your profile.`}
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

/**
 * In place of the composer in a conversation with someone the viewer blocked:
 * "You blocked {name}" and Unblock, which brings the composer (and the conversation in the list) back.
 */
export function UnblockBar({ userId, name }: { userId: string; name: string }) {
  const unblock = useUnblockUser();
  const toast = useToast();
  return (
    <div className="thread-blocked thread-you-blocked" role="status">
      <p>{BLOCK_TEXTS.youBlocked(name)}</p>
      <button
        type="button"
        className="button button-ghost"
        disabled={unblock.isPending}
        onClick={() => unblock.mutate(userId, { onSuccess: () => toast.show(`You unblocked ${name}.`, { kind: "success" }) })}
      >
        {unblock.isPending ? "Unblocking…" : "Unblock"}
      </button>
      {unblock.isError && <FormError message={errorMessage(unblock.error, "Could not unblock. Please try again.")} />}
    </div>
  );
}
