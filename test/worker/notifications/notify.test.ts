import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { createDb } from "../../../worker/db/client";
import { conversations } from "../../../worker/db/schema";
import { getConfig } from "../../../worker/env";
import { notify } from "../../../worker/services/notify";
import { api, authed, json, signUp } from "../helpers";

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
