/**
 * GET evidence/{name}: a private evidence photo (docs/decisions/032), to staff (admin bearer), its
 * uploader, and the parties of a deal that cites it; 404 to anyone else, as for a photo that does not
 * exist. Never cached anywhere but the reader's own browser session: `private, no-store`.
 */
import { EVIDENCE_MESSAGES, EVIDENCE_URL_PREFIX, isEvidenceUrl } from "../../contract/evidence";
import { createRouter } from "../../lib/context";
import { notFound } from "../../lib/errors";
import { staffOrUser } from "../../middleware/require-admin";
import { readEvidence } from "../../services/evidence";

export const evidenceRoutes = createRouter().get("/:name", async (c) => {
  const viewer = await staffOrUser(c);
  const name = c.req.param("name");
  if (!isEvidenceUrl(`${EVIDENCE_URL_PREFIX}${name}`)) throw notFound(EVIDENCE_MESSAGES.notFound);
  const photo = await readEvidence(c.var.db, c.env, name, "staff" in viewer ? { staff: true } : viewer);
  if (!photo) throw notFound(EVIDENCE_MESSAGES.notFound);
  return new Response(photo.body, {
    headers: {
      "Content-Type": photo.contentType,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      // An image, never a page of our origin, whatever its bytes pretend.
      "Content-Security-Policy": "sandbox; default-src 'none'",
    },
  });
});
