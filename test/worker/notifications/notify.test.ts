import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { createDb } from "../../../worker/db/client";
import { conversations } from "../../../worker/db/schema";
import { getConfig } from "../../../worker/env";
import { notify } from "../../../worker/services/notify";
import { api, authed, deliver, drainQueues, json, queued, retrying, signUp } from "../helpers";

const ctx = () => ({ db: createDb(env), env, config: getConfig(env) });

async function mailbox(to: string) {
  const { data } = await json<{ data: { subject: string; text: string }[] }>(await api(`/api/v1/dev/emails?to=${encodeURIComponent(to)}`));
  return data;
}

async function allEmailsOff(token: string) {
  const res = await api(
    "/api/v1/users/notifications",
    authed(token, {
      method: "PATCH",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email_on_message: false, email_on_listing_review: false, email_on_verification_review: false, email_on_saved_search: false }),
    }),
  );
  expect(res.status).toBe(200);
}

describe("notify", () => {
  it("a kind the user turned off is not sent; a transactional kind is sent whatever the settings say", async () => {
    const s = await signUp("notify-off@example.com");
    await allEmailsOff(s.access_token);
    const before = (await mailbox("notify-off@example.com")).length;

    expect(await notify(ctx(), { userId: s.user.id }, { kind: "listing_review", title: "Room A", approved: true, reason: null })).toEqual({ status: "off" });
    expect(await notify(ctx(), { userId: s.user.id }, { kind: "promotion_payment_failed", listingId: "l1", title: "Room A" })).toEqual({ status: "sent" });
    await drainQueues();

    const mails = await mailbox("notify-off@example.com");
    expect(mails).toHaveLength(before + 1);
    expect(mails[0]!.subject).toBe('Payment failed for the promotion of "Room A"');
  });

  it("a bare address is sent to without an account; an unknown user id is nobody", async () => {
    expect(await notify(ctx(), { address: "landlord@example.org", firstName: "Lee" }, { kind: "verification_code", code: "123456" })).toEqual({ status: "sent" });
    expect((await mailbox("landlord@example.org"))[0]!.subject).toBe("123456 is your CampusNest verification code");
    expect(await notify(ctx(), { userId: "no-such-user" }, { kind: "promotion_payment_failed", listingId: "l1", title: "Room A" })).toEqual({ status: "no_recipient" });
  });

  it("runs a kind's throttle once, after the preference: the second message email within the gap is throttled", async () => {
    const [s, other] = await Promise.all([signUp("notify-throttle@example.com"), signUp("notify-sender@example.com")]);
    const conversation = { id: "c-notify", userA: s.user.id, userB: other.user.id };
    await createDb(env).insert(conversations).values(conversation);
    const event = { kind: "new_message" as const, conversation, senderId: other.user.id, senderFirstName: "Sam" };
    const first = await notify(ctx(), { userId: s.user.id }, event);
    const second = await notify(ctx(), { userId: s.user.id }, event);
    expect([first.status, second.status]).toEqual(["sent", "throttled"]);
  });

  it("a code is emailed before notify returns; any other notice is a job on the notices queue, sent by its consumer", async () => {
    const s = await signUp("notify-queue@example.com");
    // Read straight from the table: a mailbox request would deliver what is queued (helpers/queues.ts).
    const kept = async () => (await env.DB.prepare("SELECT count(*) AS n FROM dev_emails WHERE \"to\" = ?").bind("notify-queue@example.com").first<{ n: number }>())!.n;
    const before = await kept();
    expect(await notify(ctx(), { address: "notify-queue@example.com" }, { kind: "sign_in_code", code: "246810" })).toEqual({ status: "sent" });
    expect(queued()).toHaveLength(0);
    expect(await kept()).toBe(before + 1);

    expect(await notify(ctx(), { userId: s.user.id }, { kind: "promotion_payment_failed", listingId: "l9", title: "Room Q" })).toEqual({ status: "sent" });
    // Nothing sent yet: the email is rendered and waits on the notices queue.
    expect(queued()).toEqual([expect.objectContaining({ queue: "campusnest-notices", body: expect.objectContaining({ type: "email", kind: "promotion_payment_failed", userId: s.user.id }) })]);
    expect(await kept()).toBe(before + 1);
    const [delivery] = await drainQueues();
    expect(delivery).toMatchObject({ outcome: "ack" });
    expect((await mailbox("notify-queue@example.com"))[0]!.subject).toBe('Payment failed for the promotion of "Room Q"');
    // The same message again (a retry after a lost acknowledgement, a duplicate delivery): nothing more is sent.
    expect(await deliver(delivery!.queue, [{ ...delivery!, attempts: 2 }])).toMatchObject([{ outcome: "ack" }]);
    expect(await kept()).toBe(before + 2);
  });

  it("a queued email whose send fails is retried with a growing delay, its error kept for staff; a later success clears it", async () => {
    const s = await signUp("notify-retry@example.com");
    await notify(ctx(), { userId: s.user.id }, { kind: "promotion_payment_failed", listingId: "l8", title: "Room R" });
    // A staging deployment: real email through the mail API (faked at its HTTP boundary).
    const production = { ...env, ENVIRONMENT: "test", EMAIL_API_URL: "https://mail.example/send", EMAIL_API_KEY: "k", PUBLIC_BASE_URL: "https://campusnest.example", STRIPE_WEBHOOK_SECRET: "", STRIPE_CONNECT_WEBHOOK_SECRET: "" } as Env;
    const provider = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response("down", { status: 503 }));
    try {
      const [first] = await drainQueues({ env: production });
      expect(first).toMatchObject({ outcome: "retry", delaySeconds: 30 });
      const failure = () => env.DB.prepare("SELECT kind, subject, error, attempts, dead_at, body FROM queue_failures WHERE id = ?").bind(first!.id).first<Record<string, string | number | null>>();
      expect(await failure()).toMatchObject({ kind: "email", subject: `user ${s.user.id}: promotion_payment_failed`, error: "Error: Email provider answered 503", attempts: 1, dead_at: null });
      // What staff could read has neither the address nor the email's text.
      expect(String((await failure())!.body)).not.toMatch(/notify-retry@example\.com|Room R.*could not/);
      const [second] = await drainQueues({ retry: true, env: production });
      expect(second).toMatchObject({ outcome: "retry", delaySeconds: 120, attempts: 2 });
      expect(await failure()).toMatchObject({ attempts: 2 });
      provider.mockResolvedValue(new Response("{}", { status: 200 }));
      const [third] = await drainQueues({ retry: true, env: production });
      expect(third).toMatchObject({ outcome: "ack", attempts: 3 });
      expect(provider).toHaveBeenCalledTimes(3);
      expect(await failure()).toBeNull();
      expect(retrying).toHaveLength(0);
    } finally {
      provider.mockRestore();
    }
  });

  it("a channel that fails is reported, not thrown", async () => {
    const config = { ...getConfig(env), isDevelopment: false };
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response("down", { status: 503 }));
    try {
      const outcome = await notify({ db: createDb(env), env: { ...env, EMAIL_API_URL: "https://mail.example/send", EMAIL_API_KEY: "k" } as Env, config }, { address: "x@example.org" }, { kind: "sign_in_code", code: "654321" });
      expect(outcome.status).toBe("failed");
    } finally {
      fetchSpy.mockRestore();
    }
  });
});
