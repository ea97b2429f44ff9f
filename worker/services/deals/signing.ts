/**
 * The agreement and its signatures (US ESIGN Act and UETA; docs/decisions/026, 035): reading it (a
 * `viewed` event per party and version), the emailed 6-digit code, and the signature: the
 * electronic-records consent, the typed legal name, the intent to sign and the code. A code and a
 * signature name the version and SHA-256 of the text the signer read: a text no longer current signs
 * nothing (409), and a code signs only the version it was sent for. Both signed: `signed`, then the PDF.
 */
import { DEAL_MESSAGES as M, DEAL_TIMING, namesMatch, type AgreementResponse, type Deal, type SignCodeInput, type SignDealInput } from "../../contract/deals";
import { refusal } from "../../contract/deal-process";
import { primaryOf, type Db } from "../../db/client";
import {
  agreementStatement,
  appendEvent,
  consumeSignCodeStatement,
  countSignCodeTry,
  eventStatement,
  eventsOfDeal,
  findAgreement,
  findDeal,
  hasEvent,
  insertSignCode,
  latestSignCode,
  type DealRow,
  type GuardedStatement,
} from "../../db/queries/deals";
import type { UserRow } from "../../db/queries/users";
import { sha256Hex, sha256HexOfBytes, timingSafeEqualText } from "../../lib/encoding";
import { apiError, conflict, notFound, tooManyRequests, validationFailed } from "../../lib/errors";
import { log } from "../../lib/log";
import { isoNow } from "../../lib/time";
import { notify } from "../notify";
import { agreementFor, partyNames } from "./agreement";
import { answerFor, eventBy, partyDeal, type Effects, type RequestMeta } from "./index";
import { makeSignedPdf } from "./pdf";
import { transition, type Role } from "./process";

const anySignature = (d: DealRow) => !!(d.renter_signed_at || d.lister_signed_at);

/**
 * Statements that store a new agreement version when the text the deal's facts make now differs from
 * the newest one (a consent change, a party verified since), before the first signature only; null when
 * nothing changed. The caller's transition sets `agreement_version` to `version`.
 */
export async function newVersionIfChanged(db: Db, d: DealRow, now: string, overrides: Partial<DealRow> = {}): Promise<{ version: number; sha256: string; statements: GuardedStatement[] } | null> {
  if (d.agreement_version === 0 || anySignature(d)) return null;
  const draft = await agreementFor(db, { ...d, ...overrides });
  if (draft.sha256 === d.agreement_sha256) return null;
  const version = d.agreement_version + 1;
  return { version, sha256: draft.sha256, statements: [agreementStatement(d.id, version, draft.template, draft.text, draft.sha256, now)] };
}

/** The agreement as a party (or staff) reads it; a party's first read of each version is recorded. */
export async function readAgreement(db: Db, viewer: { userId: string } | { staff: true }, id: string, meta: RequestMeta, nowMs = Date.now()): Promise<AgreementResponse["data"]> {
  let deal: DealRow;
  let role: Role | null = null;
  if ("userId" in viewer) ({ deal, role } = await partyDeal(db, id, viewer.userId));
  else deal = (await findDeal(db, id)) ?? (() => { throw notFound(M.notFound); })();
  if (deal.agreement_version === 0) throw notFound(M.agreementMissing);
  const agreement = (await findAgreement(db, deal.id, deal.agreement_version))!;
  if (role && "userId" in viewer && !(await hasEvent(db, deal.id, viewer.userId, "viewed", agreement.version))) {
    await appendEvent(db, deal.id, { type: "viewed", actorId: viewer.userId, actorRole: role, at: isoNow(nowMs), ip: meta.ip, userAgent: meta.userAgent, agreementVersion: agreement.version, sha256: agreement.sha256 });
  }
  const events = await eventsOfDeal(db, deal.id);
  return { version: agreement.version, text: agreement.text, sha256: agreement.sha256, events: events.map((e) => ({ type: e.type, actor_id: e.actor_id, at: e.at })) };
}

/** What signing needs besides the signer (the declaration's `sign` guard): the state, the consent, both identities verified, not signed yet. */
function checkSignable(d: DealRow, role: Role, nowMs: number) {
  const no = refusal("sign", d, { now: nowMs, as: role });
  if (no) throw apiError(no.status, { detail: no.detail });
}

/** The text the signer read must be the current one (409 otherwise: nothing is signed). */
function checkRead(d: DealRow, read: SignCodeInput) {
  if (read.agreement_version !== d.agreement_version || read.sha256 !== d.agreement_sha256) throw conflict(M.agreementChanged);
}

const codeHashOf = (dealId: string, userId: string, code: string) => sha256Hex(`deal-sign:${dealId}:${userId}:${code}`);

/**
 * Emails the party a signing code for the version they read (one per 60 s, valid 15 minutes). The
 * agreement is first brought up to date (a party verified since acceptance is named by their legal
 * name: a new version), in which case the version they read is no longer current: 409.
 */
export async function sendSignCode(db: Db, fx: Effects, user: UserRow, id: string, read: SignCodeInput, nowMs = Date.now()): Promise<{ expires_in: number; agreement_version: number }> {
  const now = isoNow(nowMs);
  const party = await partyDeal(db, id, user.id);
  let deal = party.deal;
  const role = party.role;
  checkSignable(deal, role, nowMs);
  if (await newVersionIfChanged(db, deal, now)) {
    ({ after: deal } = await transition(
      db,
      fx,
      id,
      "agreement_update",
      { user: user.id },
      async (d) => {
        const again = await newVersionIfChanged(db, d, now);
        return { set: { agreement_version: again?.version ?? d.agreement_version }, statements: again?.statements ?? [] };
      },
      nowMs,
    ));
  }
  checkRead(deal, read);
  const code = String(crypto.getRandomValues(new Uint32Array(1))[0]! % 1_000_000).padStart(6, "0");
  const stored = await insertSignCode(primaryOf(db), id, user.id, deal.agreement_version, await codeHashOf(id, user.id, code), now, isoNow(nowMs + DEAL_TIMING.signCodeTtlMs), isoNow(nowMs - DEAL_TIMING.signCodeGapMs));
  if (!stored) {
    const last = await latestSignCode(primaryOf(db), id, user.id);
    const wait = last ? Math.max(1, Math.ceil((Date.parse(last.created_at) + DEAL_TIMING.signCodeGapMs - nowMs) / 1000)) : 60;
    throw tooManyRequests(wait, M.codeTooSoon);
  }
  const sent = await notify({ db, env: fx.env, config: fx.config }, { user }, { kind: "deal_sign_code", title: deal.listing_title, code });
  if (sent.status !== "sent") throw apiError(503, { detail: "We could not send the code. Please try again." });
  return { expires_in: DEAL_TIMING.signCodeTtlMs / 1000, agreement_version: deal.agreement_version };
}

/**
 * A signature. Refusals for the name, the intent or the records consent use no try of the code; a
 * wrong code uses one (5 per code). The signature, the code's use and the events are one compare-and-set,
 * applied only while the agreement is still the version (and hash) the signer read, the one the code was sent for.
 */
export async function signDeal(db: Db, fx: Effects, user: UserRow, id: string, input: SignDealInput, meta: RequestMeta, nowMs = Date.now()): Promise<Deal> {
  const now = isoNow(nowMs);
  const { deal, role } = await partyDeal(db, id, user.id);
  checkSignable(deal, role, nowMs);
  checkRead(deal, input);
  if (input.esign_consent !== true) throw validationFailed([{ path: "esign_consent", message: M.esignConsent }]);
  if (input.intent !== true) throw validationFailed([{ path: "intent", message: M.intent }]);
  const legal = user.legalFirstName !== null && user.legalLastName !== null ? `${user.legalFirstName} ${user.legalLastName}` : null;
  if (!legal) throw validationFailed([{ path: "typed_name", message: M.nameMismatch }]);
  if (!namesMatch(input.typed_name, legal)) throw validationFailed([{ path: "typed_name", message: M.nameExpected(legal) }]);

  const primary = primaryOf(db);
  const code = await latestSignCode(primary, id, user.id);
  if (!code || code.consumed_at) throw validationFailed([{ path: "code", message: M.codeMissing }]);
  if (code.agreement_version !== input.agreement_version) throw conflict(M.codeOtherVersion);
  if (code.expires_at <= now) throw validationFailed([{ path: "code", message: M.codeExpired }]);
  if (code.attempts >= DEAL_TIMING.signCodeTries) throw validationFailed([{ path: "code", message: M.codeSpent }]);
  if (!timingSafeEqualText(await codeHashOf(id, user.id, input.code), code.code_hash)) {
    const counted = await countSignCodeTry(primary, code.id, DEAL_TIMING.signCodeTries);
    const left = DEAL_TIMING.signCodeTries - code.attempts - 1;
    throw validationFailed([{ path: "code", message: counted && left > 0 ? `${M.codeWrong} (${left} ${left === 1 ? "try" : "tries"} left)` : M.codeSpent }]);
  }

  const { after } = await transition(
    db,
    fx,
    id,
    "sign",
    { user: user.id },
    async (d) => {
      checkRead(d, input);
      const agreement = (await findAgreement(db, d.id, d.agreement_version))!;
      const otherSigned = role === "renter" ? d.lister_signed_at : d.renter_signed_at;
      const common = { ...eventBy(role, user.id, now, meta), agreementVersion: agreement.version, sha256: agreement.sha256 };
      return {
        set: {
          [role === "renter" ? "renter_signed_at" : "lister_signed_at"]: now,
          ...(otherSigned && { status: "signed" as const }),
        },
        statements: [
          consumeSignCodeStatement(code.id, now),
          eventStatement(d.id, { type: "esign_consent", ...common }),
          eventStatement(d.id, { type: "signed", ...common, details: { typed_name: input.typed_name.trim().replace(/\s+/g, " ") } }),
          ...(otherSigned ? [eventStatement(d.id, { type: "completed", ...eventBy("system", null, now), agreementVersion: agreement.version, sha256: agreement.sha256 })] : []),
        ],
        // One signed: the other party is told it is their turn; both: the signed copy goes to both below.
        notice: otherSigned ? null : "deal_signature",
        noticeFacts: { signedBy: role },
      };
    },
    nowMs,
  );
  let final = after;
  if (after.status === "signed") {
    // The final document at once, so both can download it from the answer on; a failure leaves it to the
    // first download (GET agreement.pdf makes it when missing).
    try {
      final = await ensureSignedPdf(db, fx, after);
    } catch (err) {
      log.warn("deal_pdf_failed", { error: err instanceof Error ? err.message : "unknown" });
    }
    fx.defer(
      (async () => {
        for (const userId of [final.renter_id, final.lister_id]) {
          await notify({ db, env: fx.env, config: fx.config }, { userId }, { kind: "deal_signed", dealId: final.id, title: final.listing_title, agreementSha256: final.agreement_sha256 ?? "", pdfSha256: final.pdf_sha256 });
        }
      })().catch((err: unknown) => log.warn("deal_followup_failed", { error: err instanceof Error ? err.name : "unknown" })),
    );
  }
  return answerFor(db, fx, final, user.id, nowMs);
}

/** A draft PDF of the newest agreement version, before both signed (made on request, never stored). */
export async function draftPdf(db: Db, env: Env, d: DealRow): Promise<Uint8Array> {
  const agreement = await findAgreement(db, d.id, d.agreement_version);
  if (!agreement) throw notFound(M.agreementMissing);
  const [events, names] = await Promise.all([eventsOfDeal(db, d.id), partyNames(db, d)]);
  return makeSignedPdf(env, { deal: d, agreement, events, renterName: names.renter, listerName: names.lister, draft: true });
}

/** The signed PDF of a signed deal: made, stored under an immutable key and recorded once. */
export async function ensureSignedPdf(db: Db, fx: Pick<Effects, "env" | "config">, d: DealRow): Promise<DealRow> {
  if (d.pdf_key) return d;
  const agreement = (await findAgreement(db, d.id, d.agreement_version))!;
  const events = await eventsOfDeal(primaryOf(db), d.id);
  const names = await partyNames(db, d);
  const pdf = await makeSignedPdf(fx.env, { deal: d, agreement, events, renterName: names.renter, listerName: names.lister });
  const sha = await sha256HexOfBytes(pdf);
  // The key names the document's hash: a later PDF (never expected) could not overwrite this one.
  const key = `deals/${d.id}/agreement-v${agreement.version}-${sha.slice(0, 16)}.pdf`;
  await fx.env.ID_DOCUMENTS.put(key, pdf, { httpMetadata: { contentType: "application/pdf" }, customMetadata: { sha256: sha } });
  const now = Date.now();
  const { after } = await transition(
    db,
    null,
    d.id,
    "pdf_made",
    { role: "system" },
    (cur) => (cur.pdf_key ? { set: {} } : { set: { pdf_key: key, pdf_sha256: sha }, statements: [eventStatement(cur.id, { type: "pdf_made", ...eventBy("system", null, isoNow(now)), sha256: sha, agreementVersion: agreement.version })] }),
    now,
  );
  return after;
}
