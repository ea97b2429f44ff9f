/**
 * Connect events delivered the way Stripe really does (docs/decisions/013, 030): shuffled, twice, at the
 * same instant. Each trial signs real `account.updated` events for a fresh account and compares the END
 * STATE (the stored account, the recorded event ids, the status answer) with the same events delivered
 * one after the other.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { PayoutOnboardingResponse, PayoutStatusResponse } from "../../../worker/contract/payouts";
import { createDb } from "../../../worker/db/client";
import { DEV_CONNECT_WEBHOOK_SECRET, getConfig } from "../../../worker/env";
import { startOnboarding } from "../../../worker/services/payouts";
import { devAccountUpdated } from "../../../worker/services/payouts/dev-connect";
import { signWebhookPayload } from "../../../worker/services/stripe/webhook";
import { api, authed, json, type Session, signUpVerified } from "../helpers";

/** Waits `n` database round trips before sending: sweeps where one request's reads fall among the other's. */
const after = async <T>(n: number, send: () => Promise<T>) => {
  for (let i = 0; i < n; i++) await env.DB.prepare("SELECT 1").first();
  return send();
};

/** A seeded shuffle (mulberry32), so a failing order can be replayed. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  let a = seed >>> 0;
  const random = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const start = Math.floor(Date.now() / 1000);
let lister: Session;

beforeAll(async () => {
  lister = await signUpVerified("payouts-race@ufl.edu");
});

async function deliver(event: object) {
  const payload = JSON.stringify(event);
  return api("/api/v1/payments/connect-webhook", { method: "POST", body: payload, headers: { "stripe-signature": await signWebhookPayload(DEV_CONNECT_WEBHOOK_SECRET, payload) } });
}

/**
 * A fresh account of the lister: the previous one's row removed, onboarding run again (the service
 * itself: the route's per-user write budget, 60 a minute, is not what is tested).
 */
async function freshAccount(): Promise<string> {
  await env.DB.prepare("DELETE FROM payout_accounts WHERE user_id = ?").bind(lister.user.id).run();
  const { url } = await startOnboarding(createDb(env), getConfig(env), { ...lister.user, idVerificationStatus: "verified" }, "http://localhost");
  return url.split("/").pop()!;
}

/**
 * An account's onboarding as Stripe reports it, one event a second: details asked, some given, transfers
 * active, then restricted (a document asked for later), then active again. In order it ends ready.
 */
const lifecycle = (accountId: string) => [
  devAccountUpdated(accountId, lister.user.id, start + 1, "inactive", ["individual.dob.day", "external_account"]),
  devAccountUpdated(accountId, lister.user.id, start + 2, "pending", ["external_account"]),
  devAccountUpdated(accountId, lister.user.id, start + 3, "active"),
  devAccountUpdated(accountId, lister.user.id, start + 4, "inactive", ["individual.verification.document"]),
  devAccountUpdated(accountId, lister.user.id, start + 5, "active"),
];
/** The same lifecycle ending restricted (its last event is the restriction). */
const endingRestricted = (accountId: string) => lifecycle(accountId).slice(0, 4);

interface EndState {
  row: Record<string, unknown>;
  recorded: number;
  status: PayoutStatusResponse["data"];
}

async function endState(accountId: string, eventIds: string[]): Promise<EndState> {
  const row = (await env.DB.prepare(
    "SELECT status, details_submitted, transfers_active, payouts_enabled, requirements_due, stripe_updated FROM payout_accounts WHERE stripe_account_id = ?",
  )
    .bind(accountId)
    .first())!;
  const recorded = (await env.DB.prepare(`SELECT COUNT(*) AS n FROM stripe_events WHERE id IN (${eventIds.map(() => "?").join(",")})`)
    .bind(...eventIds)
    .first<{ n: number }>())!.n;
  const status = (await json<PayoutStatusResponse>(await api("/api/v1/payouts/status", authed(lister.access_token)))).data;
  return { row, recorded, status };
}

/** The end state of `make`'s events delivered one after the other, in order. */
async function inOrder(make: (accountId: string) => object[]): Promise<EndState> {
  const accountId = await freshAccount();
  const events = make(accountId);
  for (const e of events) expect((await deliver(e)).status).toBe(200);
  return endState(accountId, events.map((e) => (e as { id: string }).id));
}

describe("account.updated in any order, twice, at once", () => {
  for (const [name, make, expected] of [
    ["ending ready", lifecycle, "ready"],
    ["ending restricted", endingRestricted, "pending"],
  ] as const) {
    it(`${name}: every shuffled order, one after another, ends as in order`, async () => {
      const reference = await inOrder(make);
      expect(reference.status.status).toBe(expected);
      expect(reference.recorded).toBe(make("acct_x").length);
      for (let seed = 1; seed <= 12; seed++) {
        const accountId = await freshAccount();
        const events = make(accountId);
        for (const e of shuffled(events, seed)) expect((await deliver(e)).status).toBe(200);
        expect(await endState(accountId, events.map((e) => e.id)), `seed ${seed}`).toEqual(reference);
      }
    });

    it(`${name}: every event twice, all at once (with head starts), ends as in order`, async () => {
      const reference = await inOrder(make);
      for (let trial = 0; trial < 6; trial++) {
        const accountId = await freshAccount();
        const events = make(accountId);
        const burst = shuffled([...events, ...events], trial + 100);
        const answers = await Promise.all(burst.map((e, i) => after(trial === 0 ? 0 : (i * trial) % 4, () => deliver(e))));
        // Every delivery is acknowledged (a duplicate answers 200 applied false), none is a 5xx.
        expect(answers.map((a) => a.status)).toEqual(burst.map(() => 200));
        const applied = await Promise.all(answers.map((a) => json<{ applied: boolean }>(a)));
        // A duplicate never applies twice: at most one `applied` per event id.
        expect(applied.filter((a) => a.applied).length).toBeLessThanOrEqual(events.length);
        expect(await endState(accountId, events.map((e) => e.id)), `trial ${trial}`).toEqual(reference);
      }
    });
  }

  it("the newest and an older event at the same instant: the newest wins, whichever lands first", async () => {
    for (const [first, second] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [3, 0],
      [0, 3],
    ] as const) {
      const accountId = await freshAccount();
      const [older, , , , newest] = lifecycle(accountId);
      await Promise.all([after(first, () => deliver(newest!)), after(second, () => deliver(older!))]);
      expect((await endState(accountId, [older!.id, newest!.id])).status).toEqual({ status: "ready", requirements_due: [] });
    }
  });

  it("the account's first event at the same instant as onboarding's second tap: one row, the event's state", async () => {
    for (let trial = 0; trial < 4; trial++) {
      const accountId = await freshAccount();
      const event = devAccountUpdated(accountId, lister.user.id, start + 10 + trial, "active");
      const [hook, tap] = await Promise.all([after(trial % 2, () => deliver(event)), after((trial + 1) % 2, () => api("/api/v1/payouts/onboarding", authed(lister.access_token, { method: "POST" })))]);
      expect([hook.status, tap.status]).toEqual([200, 200]);
      expect((await json<PayoutOnboardingResponse>(tap)).data.url).toBe(`/dev/connect/${accountId}`);
      const rows = await env.DB.prepare("SELECT stripe_account_id, status FROM payout_accounts WHERE user_id = ?").bind(lister.user.id).all();
      expect(rows.results).toEqual([{ stripe_account_id: accountId, status: "ready" }]);
    }
  });
});
