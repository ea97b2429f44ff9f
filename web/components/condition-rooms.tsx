/**
 * A sent condition report's rooms (docs/decisions/040), as both parties and staff read them: each room's
 * condition, note and photos (private evidence, fetched with the reader's credential by `load`) with the
 * server's receipt time of each, the proof of when it was taken at the latest.
 */
import type { ConditionReport, RoomCondition } from "@contract/reviews";
import { EvidencePhoto } from "./ui/evidence-photo";

export const CONDITION_LABELS: Record<RoomCondition, string> = { good: "Good", worn: "Worn", damaged: "Damaged", missing: "Missing" };

const when = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });

/** "Move-in report", "Move-out report". */
export const reportTitle = (report: Pick<ConditionReport, "phase">) => (report.phase === "move_in" ? "Move-in report" : "Move-out report");

export function ConditionRooms({
  report,
  load,
  attached = [],
  roomAction,
}: {
  report: ConditionReport;
  load: (path: string) => Promise<Blob>;
  /** Photos a problem report carries: their rooms say so. */
  attached?: readonly string[];
  /** Something offered beside a room (the renter's "Report a problem" from a damaged or missing one). */
  roomAction?: (room: ConditionReport["rooms"][number]) => React.ReactNode;
}) {
  return (
    <ul className="stack-sm room-list">
      {report.rooms.map((room, i) => (
        <li key={i} className={`room room-${room.condition}`}>
          <strong>{room.name}</strong>: <span className={`badge condition-${room.condition}`}>{CONDITION_LABELS[room.condition]}</span>
          {room.photos.some((p) => attached.includes(p.url)) && <span className="badge badge-pending"> Attached to the problem</span>}
          {room.note && <p className="prewrap">{room.note}</p>}
          {room.photos.length > 0 && (
            <>
              <ul className="statement-photos" aria-label={`Photos of ${room.name}`}>
                {room.photos.map((p, j) => (
                  <li key={p.url}>
                    <EvidencePhoto url={p.url} alt={`${room.name}, photo ${j + 1}`} load={load} />
                    <span className="muted">Received {when(p.received_at)}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
          {roomAction?.(room)}
        </li>
      ))}
    </ul>
  );
}
