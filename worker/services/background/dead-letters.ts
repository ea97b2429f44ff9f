/** Dead letters for staff (docs/decisions/037): background work that failed every retry, newest first. */
import type { DeadLetter, DeadLettersResponse } from "../../contract/dead-letters";
import type { Db } from "../../db/client";
import { deadLetters } from "../../db/queries/background";
import { keysetPage } from "../../lib/cursor";

export async function deadLetterPage(db: Db, limit: number, after: { dead_at: string; id: string } | null): Promise<DeadLettersResponse> {
  const rows = await deadLetters(db, limit, after);
  const { items, pagination } = keysetPage(rows, limit, (last) => ({ dead_at: last.deadAt, id: last.id }));
  return {
    dead_letters: items.map(
      (r): DeadLetter => ({ id: r.id, kind: r.kind, subject: r.subject, body: r.body, error: r.error, attempts: r.attempts, sent_at: r.sentAt, dead_at: r.deadAt! }),
    ),
    pagination,
  };
}
