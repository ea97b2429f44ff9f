/**
 * A deal's reviews and condition reports (api-contract "Reviews and condition reports"; docs/decisions/040),
 * mounted under /api/v1/deals. Only the parties (and staff, for the reads) reach a deal: 404 to anyone else.
 */
import type { Context } from "hono";
import { conditionPhaseSchema, conditionReportSchema, reportCommentSchema, reviewSchema, type ConditionReport, type ConditionReportsResponse, type DealReviews, type Review } from "../../contract/reviews";
import { createRouter, type AppContext } from "../../lib/context";
import { deferOf, requestMetaOf } from "../../lib/request-meta";
import { apiError, validationFailed } from "../../lib/errors";
import { parseJson } from "../../lib/validate";
import { requireUser } from "../../middleware/auth";
import { enforceLimit } from "../../middleware/rate-limit";
import { staffOrUser } from "../../middleware/require-admin";
import { partyDeal, type Effects } from "../../services/deals";
import { commentConditionReport, conditionReportRefusal, conditionReportsFor, sendConditionReport } from "../../services/deals/condition-reports";
import { conditionReportsPdf } from "../../services/deals/condition-reports-pdf";
import { dealReviewsFor, writeReview } from "../../services/deals/reviews";
import { checkEvidence } from "../../services/evidence";

const effectsOf = (c: Context<AppContext>): Effects => ({ env: c.env, config: c.var.config, defer: deferOf(c) });

export const afterTheKeysRoutes = createRouter()
  .post("/:id/review", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    // A stranger learns nothing from the body's checks: the deal is looked up first.
    await partyDeal(c.var.db, c.req.param("id"), user.id);
    const input = await parseJson(c, reviewSchema);
    return c.json<{ data: Review }>({ data: await writeReview(c.var.db, effectsOf(c), user, c.req.param("id"), input, requestMetaOf(c)) }, 201);
  })

  .get("/:id/reviews", async (c) => {
    const viewer = await staffOrUser(c);
    return c.json<{ data: DealReviews }>({ data: await dealReviewsFor(c.var.db, "userId" in viewer ? viewer : { staff: true }, c.req.param("id")) });
  })

  .post("/:id/condition-report", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const { deal, role } = await partyDeal(c.var.db, c.req.param("id"), user.id);
    const input = await parseJson(c, conditionReportSchema);
    // Refused for the deal's state, the caller or the window before the photos are looked at.
    const no = conditionReportRefusal(deal, role, input.phase, Date.now());
    if (no) throw apiError(no.status, { detail: no.detail });
    await checkEvidence(c.var.db, user.id, input.rooms.flatMap((r) => r.photos), "rooms");
    return c.json<{ data: ConditionReport }>({ data: await sendConditionReport(c.var.db, effectsOf(c), user, c.req.param("id"), input, requestMetaOf(c)) }, 201);
  })

  .post("/:id/condition-report/:phase/comment", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    await partyDeal(c.var.db, c.req.param("id"), user.id);
    const phase = conditionPhaseSchema.safeParse(c.req.param("phase"));
    if (!phase.success) throw validationFailed([{ path: "phase", message: "The phase must be move_in or move_out" }]);
    const { text } = await parseJson(c, reportCommentSchema);
    return c.json<{ data: ConditionReport }>({ data: await commentConditionReport(c.var.db, effectsOf(c), user, c.req.param("id"), phase.data, text, requestMetaOf(c)) }, 201);
  })

  .get("/:id/condition-reports", async (c) => {
    const viewer = await staffOrUser(c);
    const { data, windows } = await conditionReportsFor(c.var.db, viewer, c.req.param("id"));
    return c.json<ConditionReportsResponse>({ data, windows });
  })

  // The reports in the deal's PDF bundle: rendered on request from the stored reports (read-only once sent).
  .get("/:id/condition-reports.pdf", async (c) => {
    const viewer = await staffOrUser(c);
    const { data, deal } = await conditionReportsFor(c.var.db, viewer, c.req.param("id"));
    const pdf = await conditionReportsPdf(c.env, deal, data);
    return new Response(pdf, {
      headers: { "content-type": "application/pdf", "content-disposition": `attachment; filename="condition-reports-${deal.id}.pdf"`, "cache-control": "private, no-store" },
    });
  });
