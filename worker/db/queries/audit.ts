import type { AuditAction } from "../../contract/audit";
import type { Db } from "../client";
import { adminAudit } from "../schema";
import { newId } from "../../lib/ids";

/**
 * One staff action for the audit log (who, what, on which row). Returns the insert so callers put
 * it in the same db.batch as the change it records: both land, or neither.
 */
export const insertAudit = (db: Db, actor: string, action: AuditAction, table: string | null, id: string | null, details?: unknown) =>
  db.insert(adminAudit).values({
    id: newId(),
    actor,
    action,
    targetTable: table,
    targetId: id,
    details: details === undefined ? null : JSON.stringify(details),
  });
