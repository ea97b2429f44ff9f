import { useToast } from "../../../components/ui/toast";
import { errorMessage } from "../../../lib/api-client";
import { useUnsuspendUser } from "../api/reports-api";
import { formatStaffTime } from "../lib/format";

/** A suspended user's card (docs/decisions/015): since when, and Unsuspend (their listings come back). */
export function SuspendedLine({ userId, since }: { userId: string; since: string }) {
  const unsuspend = useUnsuspendUser();
  const toast = useToast();
  return (
    <span className="admin-suspended">
      <span className="badge badge-rejected">Suspended</span>{" "}
      <span className="muted">
        since <time dateTime={since}>{formatStaffTime(since)}</time>
      </span>{" "}
      <button
        type="button"
        className="button button-ghost"
        disabled={unsuspend.isPending}
        onClick={() =>
          unsuspend.mutate(userId, {
            onSuccess: (r) => toast.show(`Suspension lifted. ${r.restored_listings} listing${r.restored_listings === 1 ? "" : "s"} visible again.`, { kind: "success" }),
            onError: (err) => toast.show(errorMessage(err, "Could not lift the suspension."), { kind: "error", durationMs: 4000 }),
          })
        }
      >
        {unsuspend.isPending ? "Unsuspending…" : "Unsuspend"}
      </button>
    </span>
  );
}
