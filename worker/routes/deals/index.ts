/**
 * Deals (api-contract "Deals"; docs/decisions/026): the renter's request, the lister's answer,
 * cancellation, the agreement and its signatures, the landlord consent. Only the two parties see a
 * deal (404 to anyone else); the agreement and its PDF also to staff (admin bearer).
 */
import type { Context } from "hono";
import {
  createDealSchema,
  dealCursorSchema,
  dealReasonSchema,
  dealsPageSchema,
  landlordConsentSchema,
  signCodeSchema,
  signDealSchema,
  cancellationRefundSchema,
  dealProblemSchema,
  dealStatementSchema,
  dealLeaseSchema,
  DEAL_MESSAGES,
  type CheckoutResponse,
  type DealStatement,
  type AgreementResponse,
  type DealResponse,
} from "../../contract/deals";
import type { Pagination } from "../../contract/listings";
import type { Deal } from "../../contract/deals";
import { insertAudit } from "../../db/queries/audit";
import { findDeal } from "../../db/queries/deals";
import { createRouter, type AppContext } from "../../lib/context";
import { decodeCursor } from "../../lib/cursor";
import { badRequest, forbidden, notFound, validationFailed } from "../../lib/errors";
import { idempotencyKeyOf } from "../../lib/idempotency";
import { issuesToErrors, parseJson, parseQuery } from "../../lib/validate";
import { requireUser } from "../../middleware/auth";
import { enforceLimit } from "../../middleware/rate-limit";
import { staffOrUser } from "../../middleware/require-admin";
import { acceptDeal, attachLease, dealForParty, dealsForUser, declineDeal, partyDeal, requestDeal, type Effects } from "../../services/deals";
import { deferOf, requestMetaOf } from "../../lib/request-meta";
import { setLandlordConsent } from "../../services/deals/landlord";
import { checkEvidence } from "../../services/evidence";
import { spendAgreementDraft } from "../../services/fair-use";
import { addStatement, cancelDeal, decideCancellation, movedIn, reportProblem, startDealCheckout } from "../../services/payments";
import { draftPdf, ensureSignedPdf, readAgreement, sendSignCode, signDeal } from "../../services/deals/signing";
import { afterTheKeysRoutes } from "./after-the-keys";

const effectsOf = (c: Context<AppContext>): Effects => ({ env: c.env, config: c.var.config, defer: deferOf(c) });
const metaOf = requestMetaOf;

export const dealsRoutes = createRouter()
  // A deal's reads are one account's (its address, money, agreement): never kept by the browser's HTTP
  // cache or a shared one. What a party may read offline is the app's own copy, kept per account
  // and cleared on sign-out (docs/decisions/042).
  .use("*", async (c, next) => {
    await next();
    if (c.req.method === "GET" && !c.res.headers.has("cache-control")) c.res.headers.set("cache-control", "private, no-store");
  })
  .post("/", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const key = idempotencyKeyOf(c);
    const input = await parseJson(c, createDealSchema);
    const { deal, created } = await requestDeal(c.var.db, effectsOf(c), user, input, key, metaOf(c));
    return c.json<DealResponse>({ data: deal }, created ? 201 : 200);
  })

  .get("/", async (c) => {
    const user = await requireUser(c);
    const { limit, last_evaluated_key } = parseQuery(c, dealsPageSchema);
    const page = await dealsForUser(c.var.db, c.var.config, user.id, limit, decodeCursor(last_evaluated_key, dealCursorSchema));
    return c.json<{ data: Deal[]; pagination: Pagination }>(page);
  })

  .get("/:id", async (c) => {
    const user = await requireUser(c);
    return c.json<DealResponse>({ data: await dealForParty(c.var.db, c.var.config, user, c.req.param("id")) });
  })

  .post("/:id/accept", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    return c.json<DealResponse>({ data: await acceptDeal(c.var.db, effectsOf(c), user, c.req.param("id"), metaOf(c)) });
  })

  .post("/:id/decline", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const { reason } = await parseOptionalJson(c, dealReasonSchema);
    return c.json<DealResponse>({ data: await declineDeal(c.var.db, effectsOf(c), user, c.req.param("id"), reason ?? null, metaOf(c)) });
  })

  // Unpaid: either party; paid: by the cancellation policy (services/payments, docs/decisions/029).
  .post("/:id/cancel", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const { reason } = await parseOptionalJson(c, dealReasonSchema);
    return c.json<DealResponse>({ data: await cancelDeal(c.var.db, effectsOf(c), user, c.req.param("id"), reason ?? null, metaOf(c)) });
  })

  // Payments (docs/decisions/029, 035).
  .post("/:id/checkout", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const data = await startDealCheckout(c.var.db, effectsOf(c), user, c.req.param("id"), new URL(c.req.url).origin, idempotencyKeyOf(c), metaOf(c));
    return c.json<CheckoutResponse>({ data });
  })

  .post("/:id/moved-in", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    return c.json<DealResponse>({ data: await movedIn(c.var.db, effectsOf(c), user, c.req.param("id"), metaOf(c)) });
  })

  .post("/:id/problem", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    await partyDeal(c.var.db, c.req.param("id"), user.id);
    const input = await parseJson(c, dealProblemSchema);
    await checkEvidence(c.var.db, user.id, input.photos);
    return c.json<DealResponse>({ data: await reportProblem(c.var.db, effectsOf(c), user, c.req.param("id"), input, metaOf(c)) });
  })

  .post("/:id/statement", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    await partyDeal(c.var.db, c.req.param("id"), user.id);
    const input = await parseJson(c, dealStatementSchema);
    await checkEvidence(c.var.db, user.id, input.photos);
    return c.json<{ data: DealStatement }>({ data: await addStatement(c.var.db, effectsOf(c), user, c.req.param("id"), input, metaOf(c)) }, 201);
  })

  .post("/:id/cancellation-refund", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    await partyDeal(c.var.db, c.req.param("id"), user.id);
    const { refund_cents, reason } = await parseJson(c, cancellationRefundSchema);
    return c.json<DealResponse>({ data: await decideCancellation(c.var.db, effectsOf(c), user, c.req.param("id"), refund_cents, reason || null) });
  })

  // The lister's original lease, private evidence both parties and staff read (docs/decisions/041).
  .post("/:id/lease", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    // The renter learns nothing from the body's checks either: only the lister attaches a lease.
    if ((await partyDeal(c.var.db, c.req.param("id"), user.id)).role !== "lister") throw forbidden(DEAL_MESSAGES.onlyLister);
    const { url } = await parseJson(c, dealLeaseSchema);
    await checkEvidence(c.var.db, user.id, [url], "url");
    return c.json<DealResponse>({ data: await attachLease(c.var.db, effectsOf(c), user, c.req.param("id"), url, metaOf(c)) });
  })

  .get("/:id/agreement", async (c) => {
    const viewer = await staffOrUser(c);
    const data = await readAgreement(c.var.db, "userId" in viewer ? viewer : { staff: true }, c.req.param("id"), metaOf(c));
    return c.json<AgreementResponse>({ data });
  })

  // The signed agreement (the parties and staff): made on first download if signing could not make it.
  .get("/:id/agreement.pdf", async (c) => {
    const viewer = await staffOrUser(c);
    const id = c.req.param("id");
    let deal = "userId" in viewer ? (await partyDeal(c.var.db, id, viewer.userId)).deal : await findDeal(c.var.db, id);
    if (!deal) throw notFound(DEAL_MESSAGES.notFound);
    const pdfHeaders = { "content-type": "application/pdf", "cache-control": "private, no-store" };
    if (deal.status !== "signed" && !deal.pdf_key) {
      // Before both signed: the newest version as a draft (404 before acceptance: no agreement yet),
      // rendered on each request, so a party gets AGREEMENT_DRAFTS an hour (services/fair-use).
      if ("userId" in viewer) await spendAgreementDraft(c.var.db, viewer.userId);
      const draft = await draftPdf(c.var.db, c.env, deal);
      return new Response(draft, { headers: { ...pdfHeaders, "content-disposition": `attachment; filename="sublease-agreement-${deal.id}-draft.pdf"` } });
    }
    deal = await ensureSignedPdf(c.var.db, effectsOf(c), deal);
    const object = await c.env.ID_DOCUMENTS.get(deal.pdf_key!);
    if (!object) throw notFound(DEAL_MESSAGES.pdfMissing);
    if ("staff" in viewer) await insertAudit(c.var.db, viewer.staff, "deal_pdf_download", "deals", deal.id);
    return new Response(object.body, {
      headers: {
        "content-type": "application/pdf",
        "content-disposition": `attachment; filename="sublease-agreement-${deal.id}.pdf"`,
        "cache-control": "private, no-store",
        "x-content-sha256": deal.pdf_sha256 ?? "",
      },
    });
  })

  // The code is for the version (and hash) of the agreement the signer read (docs/decisions/035).
  .post("/:id/sign-code", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    await partyDeal(c.var.db, c.req.param("id"), user.id);
    const read = await parseJson(c, signCodeSchema);
    return c.json({ data: await sendSignCode(c.var.db, effectsOf(c), user, c.req.param("id"), read) });
  })

  .post("/:id/sign", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    // A third party learns nothing from the body's checks: the deal is looked up first.
    await partyDeal(c.var.db, c.req.param("id"), user.id);
    const input = await parseJson(c, signDealSchema);
    return c.json<DealResponse>({ data: await signDeal(c.var.db, effectsOf(c), user, c.req.param("id"), input, metaOf(c)) });
  })

  .post("/:id/landlord-consent", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    await partyDeal(c.var.db, c.req.param("id"), user.id);
    const input = await parseJson(c, landlordConsentSchema);
    return c.json<DealResponse>({ data: await setLandlordConsent(c.var.db, effectsOf(c), user, c.req.param("id"), input, metaOf(c)) });
  })

  // Reviews and condition reports (docs/decisions/040).
  .route("/", afterTheKeysRoutes);

/** A body that may be absent (decline and cancel take an optional reason): empty is `{}`. */
async function parseOptionalJson<S extends typeof dealReasonSchema>(c: Context<AppContext>, schema: S) {
  const text = await c.req.text();
  let body: unknown;
  try {
    body = text.trim() ? JSON.parse(text) : undefined;
  } catch {
    throw badRequest("Request body must be valid JSON");
  }
  const result = schema.safeParse(body);
  if (!result.success) throw validationFailed(issuesToErrors(result.error.issues));
  return result.data;
}

