import { env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { createDb } from "../../../worker/db/client";
import { getConfig } from "../../../worker/env";
import { runHousekeeping } from "../../../worker/services/housekeeping";
import { notify } from "../../../worker/services/notify";
import { api, authed, deliver, drainQueues, json, post, signUp, type Session } from "../helpers";
import { connect, open } from "../helpers/sockets";
import { decrypt, newDevice, pushService, type Device } from "../helpers/push-service";

let n = 0;
const user = () => signUp(`push-${++n}-${crypto.randomUUID().slice(0, 6)}@push.test`);
const withJson = (s: Session, method: string, body: unknown) => authed(s.access_token, { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });
const subscribe = (s: Session, d: Pick<Device, "endpoint" | "p256dh" | "auth">) => api("/api/v1/push/subscriptions", withJson(s, "POST", { endpoint: d.endpoint, keys: { p256dh: d.p256dh, auth: d.auth } }));
const settings = (s: Session, body: unknown) => api("/api/v1/users/notifications", withJson(s, "PATCH", body));
const subscriptionCount = async (userId: string) => (await env.DB.prepare("SELECT count(*) AS n FROM push_subscriptions WHERE user_id = ?").bind(userId).first<{ n: number }>())!.n;

async function conversation(a: Session, b: Session): Promise<string> {
  const res = await post("/api/v1/messages/conversations", { participant_id: b.user.id }, { Authorization: `Bearer ${a.access_token}` });
  return (await json<{ data: { id: string } }>(res)).data.id;
}
const say = (s: Session, id: string, text: string) => post(`/api/v1/messages/conversations/${id}/send`, { text }, { Authorization: `Bearer ${s.access_token}` });
const read = (s: Session, id: string) => api(`/api/v1/messages/conversations/${id}/read`, authed(s.access_token, { method: "POST" }));
async function messageEmails(to: string) {
  const { data } = await json<{ data: { subject: string }[] }>(await api(`/api/v1/dev/emails?to=${encodeURIComponent(to)}`));
  return data.filter((m) => m.subject.includes("New message"));
}

let service: ReturnType<typeof pushService> | null = null;
afterEach(() => {
  service?.restore();
  service = null;
});

describe("push subscriptions", () => {
  it("the public key is the uncompressed P-256 point, base64url without padding", async () => {
    const res = await api("/api/v1/push/vapid-public-key");
    expect(res.status).toBe(200);
    const { key } = (await json<{ data: { key: string } }>(res)).data;
    expect(key).toMatch(/^[A-Za-z0-9_-]+$/);
    const bytes = Uint8Array.from(atob(key.replace(/-/g, "+").replace(/_/g, "/") + "="), (c) => c.charCodeAt(0));
    expect(bytes.length).toBe(65);
    expect(bytes[0]).toBe(4);
  });

  it("201 new, 200 the same endpoint again, 422 for addresses that are not a known push service or bad keys, 401 signed out", async () => {
    const [s, d] = await Promise.all([user(), newDevice()]);
    expect((await subscribe(s, d)).status).toBe(201);
    expect((await subscribe(s, d)).status).toBe(200);
    for (const endpoint of ["https://evil.example/push", "http://fcm.googleapis.com/fcm/send/x", "https://fcm.googleapis.com.evil.example/x", "ftp://127.0.0.1/x", "not a url"]) {
      const res = await subscribe(s, { ...d, endpoint });
      expect(res.status, endpoint).toBe(422);
      expect((await json<{ detail: unknown }>(res)).detail).toBeTruthy();
    }
    expect((await subscribe(s, { ...d, endpoint: "https://fcm.googleapis.com/fcm/send/abc" })).status).toBe(201);
    expect((await subscribe(s, { ...d, endpoint: "https://web.push.apple.com/QGk" })).status).toBe(201);
    expect((await subscribe(s, { ...d, endpoint: "https://x.notify.windows.com/w/?token=1" })).status).toBe(201);
    expect((await subscribe(s, { ...d, endpoint: "http://127.0.0.1:9/push/other", auth: "c2hvcnQ" })).status).toBe(422);
    expect((await subscribe(s, { ...d, endpoint: "http://127.0.0.1:9/push/other", p256dh: d.auth })).status).toBe(422);
    const anonymous = await api("/api/v1/push/subscriptions", { method: "POST", body: JSON.stringify({ endpoint: d.endpoint, keys: { p256dh: d.p256dh, auth: d.auth } }), headers: { "content-type": "application/json" } });
    expect(anonymous.status).toBe(401);
    expect(await subscriptionCount(s.user.id)).toBe(4);
  });

  it("keeps at most 10 a user (the oldest dropped); DELETE removes only the caller's own", async () => {
    const [s, other] = await Promise.all([user(), user()]);
    const devices = await Promise.all(Array.from({ length: 11 }, () => newDevice()));
    for (const d of devices) expect((await subscribe(s, d)).status).toBe(201);
    expect(await subscriptionCount(s.user.id)).toBe(10);
    const first = await env.DB.prepare("SELECT count(*) AS n FROM push_subscriptions WHERE endpoint = ?").bind(devices[0]!.endpoint).first<{ n: number }>();
    expect(first!.n).toBe(0);

    expect((await api("/api/v1/push/subscriptions", withJson(other, "DELETE", { endpoint: devices[5]!.endpoint }))).status).toBe(204);
    expect(await subscriptionCount(s.user.id)).toBe(10);
    expect((await api("/api/v1/push/subscriptions", withJson(s, "DELETE", { endpoint: devices[5]!.endpoint }))).status).toBe(204);
    expect(await subscriptionCount(s.user.id)).toBe(9);
  });
});

describe("who owns an endpoint", () => {
  it("another account's registration with other keys is refused (409) and changes nothing; with the same keys it moves there (a shared browser)", async () => {
    const [owner, attacker, roommate, d, forged] = await Promise.all([user(), user(), user(), newDevice(), newDevice()]);
    expect((await subscribe(owner, d)).status).toBe(201);
    const takeover = await subscribe(attacker, { endpoint: d.endpoint, p256dh: forged.p256dh, auth: forged.auth });
    expect(takeover.status).toBe(409);
    expect((await json<{ detail: string }>(takeover)).detail).toMatch(/another account/);
    const row = await env.DB.prepare("SELECT user_id, p256dh, auth FROM push_subscriptions WHERE endpoint = ?").bind(d.endpoint).first<{ user_id: string; p256dh: string; auth: string }>();
    expect(row).toEqual({ user_id: owner.user.id, p256dh: d.p256dh, auth: d.auth });
    // Its owner may renew the keys of their own endpoint.
    expect((await subscribe(owner, { endpoint: d.endpoint, p256dh: forged.p256dh, auth: forged.auth })).status).toBe(200);
    expect((await subscribe(owner, d)).status).toBe(200);
    // The same browser (same keys), signed in as someone else: the endpoint again (200), now notifying the one signed in.
    expect((await subscribe(roommate, d)).status).toBe(200);
    expect([await subscriptionCount(owner.user.id), await subscriptionCount(roommate.user.id)]).toEqual([0, 1]);
  });

  it("two accounts registering one endpoint with different keys at once: one holds it, the other hears 409", async () => {
    const [a, b, d, other] = await Promise.all([user(), user(), newDevice(), newDevice()]);
    const answers = await Promise.all([subscribe(a, d), subscribe(b, { endpoint: d.endpoint, p256dh: other.p256dh, auth: other.auth })]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM push_subscriptions WHERE endpoint = ?").bind(d.endpoint).first<{ n: number }>();
    expect(rows!.n).toBe(1);
  });
});

describe("a new message by push", () => {
  it("reaches every device, encrypted (aes128gcm), with VAPID, TTL, Urgency and a Topic per conversation; no email while the push stands", async () => {
    const [a, b, d1, d2] = await Promise.all([user(), user(), newDevice(), newDevice()]);
    await subscribe(b, d1);
    await subscribe(b, d2);
    service = pushService();
    const id = await conversation(a, b);
    expect((await say(a, id, "is the room still free?")).status).toBe(201);
    expect(service.received.map((r) => r.endpoint).sort()).toEqual([d1.endpoint, d2.endpoint].sort());
    const got = service.received.find((r) => r.endpoint === d1.endpoint)!;
    expect(got.headers.get("content-encoding")).toBe("aes128gcm");
    expect(Number(got.headers.get("ttl"))).toBeGreaterThan(0);
    expect(got.headers.get("urgency")).toBe("high");
    const topic = got.headers.get("topic")!;
    expect(topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    expect(service.received[1]!.headers.get("topic")).toBe(topic);
    expect(got.body.length).toBeGreaterThan(86);
    const payload = JSON.parse(await decrypt(d1, got.body)) as { title: string; url: string; tag: string };
    expect(payload.title).toContain("sent you a message");
    expect(payload.url).toBe(`/messages?userId=${a.user.id}`);
    expect(payload.tag).toBe(`conversation:${id}`);

    // VAPID: an ES256 JWT for the endpoint's origin, signed by the key the API publishes.
    const auth = got.headers.get("authorization")!;
    const [, jwt, k] = /^vapid t=([^,]+), k=(.+)$/.exec(auth)!;
    const { key } = (await json<{ data: { key: string } }>(await api("/api/v1/push/vapid-public-key"))).data;
    expect(k).toBe(key);
    const [h, c, sig] = jwt!.split(".");
    const claims = JSON.parse(atob(c!.replace(/-/g, "+").replace(/_/g, "/"))) as { aud: string; sub: string; exp: number };
    expect(claims.aud).toBe("http://127.0.0.1:9");
    expect(claims.sub).toMatch(/^(mailto:|https:)/);
    const raw = (s: string) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (s.length % 4)) % 4)), (ch) => ch.charCodeAt(0));
    const verifier = await crypto.subtle.importKey("raw", raw(key), { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]);
    expect(await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, verifier, raw(sig!), new TextEncoder().encode(`${h}.${c}`))).toBe(true);

    expect(await messageEmails(b.user.email)).toHaveLength(0);
  });

  it("one push per conversation until read; read, the next message pushes again", async () => {
    const [a, b, d] = await Promise.all([user(), user(), newDevice()]);
    await subscribe(b, d);
    service = pushService();
    const id = await conversation(a, b);
    await say(a, id, "one");
    await say(a, id, "two");
    await say(a, id, "three");
    expect(service.received).toHaveLength(1);
    expect((await read(b, id)).status).toBeLessThan(300);
    await say(a, id, "four");
    expect(service.received).toHaveLength(2);
  });

  it("is not pushed while the recipient has the conversation open", async () => {
    const [a, b, d] = await Promise.all([user(), user(), newDevice()]);
    await subscribe(b, d);
    const id = await conversation(a, b);
    const ticket = (await json<{ data: { ticket: string } }>(await api("/api/v1/messages/socket-ticket", authed(b.access_token, { method: "POST" })))).data.ticket;
    const socket = open(await connect(`/parties/conversation/${id}?token=${ticket}`));
    service = pushService();
    await say(a, id, "you are reading this");
    expect(await socket.next()).toMatchObject({ type: "message" });
    expect(service.received).toHaveLength(0);
    socket.socket.close();
  });

  it("410 and 404 delete the subscription; 429 waits Retry-After; 413 sends a shorter text once", async () => {
    const [a, b, gone, missing, busy, big] = await Promise.all([user(), user(), newDevice(), newDevice(), newDevice(), newDevice()]);
    for (const d of [gone, missing, busy, big]) await subscribe(b, d);
    service = pushService((endpoint, attempt) => {
      if (endpoint === gone.endpoint) return new Response(null, { status: 410 });
      if (endpoint === missing.endpoint) return new Response(null, { status: 404 });
      if (endpoint === busy.endpoint) return new Response(null, { status: 429, headers: { "Retry-After": "3600" } });
      return new Response(null, { status: endpoint === big.endpoint && attempt === 1 ? 413 : 201 });
    });
    const id = await conversation(a, b);
    await say(a, id, "hello");
    expect(service.received.filter((r) => r.endpoint === big.endpoint)).toHaveLength(2);
    const [first, second] = service.received.filter((r) => r.endpoint === big.endpoint);
    expect(second!.body.length).toBeLessThanOrEqual(first!.body.length);
    const rows = await env.DB.prepare("SELECT endpoint, not_before FROM push_subscriptions WHERE user_id = ?").bind(b.user.id).all<{ endpoint: string; not_before: string | null }>();
    expect(rows.results.map((r) => r.endpoint).sort()).toEqual([busy.endpoint, big.endpoint].sort());
    expect(Date.parse(rows.results.find((r) => r.endpoint === busy.endpoint)!.not_before!)).toBeGreaterThan(Date.now() + 3000_000);

    await read(b, id);
    const before = service.received.length;
    await say(a, id, "again");
    // The held subscription is not posted to before its Retry-After; the other still is.
    expect(service.received.slice(before).map((r) => r.endpoint)).toEqual([big.endpoint]);
  });

  it("a connection that breaks before the answer is tried once more: the push goes, no email", async () => {
    const [a, b, d] = await Promise.all([user(), user(), newDevice()]);
    await subscribe(b, d);
    service = pushService((_endpoint, attempt) => {
      if (attempt === 1) throw new TypeError("Network connection lost.");
      return new Response(null, { status: 201 });
    });
    const id = await conversation(a, b);
    await say(a, id, "still there?");
    expect(service.received).toHaveLength(2);
    expect(JSON.parse(await decrypt(d, service.received[1]!.body))).toMatchObject({ url: `/messages?userId=${a.user.id}` });
    expect(await messageEmails(b.user.email)).toHaveLength(0);
  });

  it("a deal step with the deals email off goes by push; by email still when no push is taken, or push is off too", async () => {
    const b = await user();
    expect((await settings(b, { deals: { email: false } })).status).toBe(200);
    // A deal notice of the catalogue (deal_accepted), its listing's title telling the three apart.
    const facts = { dealId: "deal-1", stay: "Jan 5, 2027 to May 20, 2027", renter: "Bo", lister: "Maya", to: "renter" as const, by: "lister", status: "accepted" as const, reason: null, currency: "usd", rentCents: 0, feeCents: 0, refundCents: 0, transferCents: 0, heldUntil: null, decideBy: null };
    const step = (title: string) => notify({ db: createDb(env), env, config: getConfig(env) }, { userId: b.user.id }, { kind: "deal_accepted", deal: { ...facts, title } });
    const mails = async () => {
      const { data } = await json<{ data: { subject: string }[] }>(await api(`/api/v1/dev/emails?to=${encodeURIComponent(b.user.email)}`));
      return data.map((m) => m.subject.replace(/^Accepted: "(.*)"$/, "$1"));
    };

    expect((await step("No device yet")).status).toBe("sent");
    await drainQueues();
    expect(await mails()).toContain("No device yet");

    const d = await newDevice();
    await subscribe(b, d);
    service = pushService();
    // The push is a job on the notices queue: posted by its consumer, once.
    expect(await step("Pushed")).toEqual({ status: "sent", push: "queued" });
    expect(service.received).toHaveLength(0);
    const [job] = await drainQueues();
    expect(JSON.parse(await decrypt(d, service.received[0]!.body))).toMatchObject({ title: 'Accepted: "Pushed"', url: "/deals/deal-1" });
    expect(await mails()).not.toContain("Pushed");
    expect(await deliver(job!.queue, [{ ...job!, attempts: 2 }])).toMatchObject([{ outcome: "ack" }]);
    expect(service.received).toHaveLength(1);

    // A device that takes nothing: the consumer sends the stand-in email (the deals email is off), once.
    service.restore();
    service = pushService(() => new Response(null, { status: 500 }));
    await step("Not taken");
    await drainQueues();
    expect((await mails()).filter((m) => m === "Not taken")).toHaveLength(1);

    service.restore();
    service = pushService();
    expect((await settings(b, { deals: { push: false, email: false } })).status).toBe(200);
    expect((await step("Both off")).status).toBe("sent");
    await drainQueues();
    expect(await mails()).toContain("Both off");
    expect(service.received).toHaveLength(0);
  });

  it("without a subscription that takes it, email stands in at once", async () => {
    const [a, b, d] = await Promise.all([user(), user(), newDevice()]);
    await subscribe(b, d);
    service = pushService(() => new Response(null, { status: 500 }));
    const id = await conversation(a, b);
    await say(a, id, "hello?");
    expect(service.received).toHaveLength(1);
    expect(await messageEmails(b.user.email)).toHaveLength(1);
  });

  it("a message still unread 15 minutes after its push is emailed by the cron; one read is not", async () => {
    const [a, b, c, db, dc] = await Promise.all([user(), user(), user(), newDevice(), newDevice()]);
    await subscribe(b, db);
    await subscribe(c, dc);
    service = pushService();
    const toB = await conversation(a, b);
    const toC = await conversation(a, c);
    await say(a, toB, "unread one");
    await say(a, toC, "read one");
    await read(c, toC);
    await runHousekeeping(env, Date.now() + 10 * 60_000);
    await drainQueues();
    expect(await messageEmails(b.user.email)).toHaveLength(0);
    await runHousekeeping(env, Date.now() + 16 * 60_000);
    await drainQueues();
    expect(await messageEmails(b.user.email)).toHaveLength(1);
    expect(await messageEmails(c.user.email)).toHaveLength(0);
    // Once: a later run sends nothing more.
    await runHousekeeping(env, Date.now() + 31 * 60_000);
    await drainQueues();
    expect(await messageEmails(b.user.email)).toHaveLength(1);
  });
});

describe("notification settings", () => {
  it("per-kind channels and quiet hours; the older booleans map onto each kind's email", async () => {
    const s = await user();
    const initial = (await json<{ data: Record<string, unknown> }>(await api("/api/v1/users/notifications", authed(s.access_token)))).data;
    expect(initial).toMatchObject({ messages: { push: true, email: true }, deals: { push: true, email: true }, saved_searches: { push: true, email: true }, reviews: { push: true, email: true }, quiet_hours: null });

    let res = await settings(s, { messages: { push: false }, quiet_hours: { start: "22:00", end: "07:30", time_zone: "Europe/Berlin" } });
    expect(res.status).toBe(200);
    expect((await json<{ data: Record<string, unknown> }>(res)).data).toMatchObject({ messages: { push: false, email: true }, quiet_hours: { start: "22:00", end: "07:30", time_zone: "Europe/Berlin" } });

    res = await settings(s, { email_on_message: false, email_on_listing_review: false, email_on_verification_review: false });
    expect((await json<{ data: Record<string, unknown> }>(res)).data).toMatchObject({ messages: { push: false, email: false }, reviews: { email: false }, email_on_message: false });
    res = await settings(s, { reviews: { email: true }, quiet_hours: null });
    expect((await json<{ data: Record<string, unknown> }>(res)).data).toMatchObject({ reviews: { email: true }, email_on_listing_review: true, email_on_verification_review: true, quiet_hours: null });

    for (const bad of [{ quiet_hours: { start: "25:00", end: "07:00", time_zone: "UTC" } }, { quiet_hours: { start: "22:00", end: "07:00", time_zone: "Mars/Olympus" } }, { messages: { push: "yes" } }]) {
      const refused = await settings(s, bad);
      expect(refused.status).toBe(422);
      expect((await json<{ detail: unknown }>(refused)).detail).toBeTruthy();
    }
  });

  it("push off for messages: no push, the email goes as before", async () => {
    const [a, b, d] = await Promise.all([user(), user(), newDevice()]);
    await subscribe(b, d);
    await settings(b, { messages: { push: false } });
    service = pushService();
    await say(a, await conversation(a, b), "hi");
    expect(service.received).toHaveLength(0);
    expect(await messageEmails(b.user.email)).toHaveLength(1);
  });

  it("quiet hours hold pushes; after them, one summary for everything held", async () => {
    const [a, a2, b, d] = await Promise.all([user(), user(), user(), newDevice()]);
    await subscribe(b, d);
    // Quiet now in UTC: from the current minute for two hours.
    const now = new Date();
    const hhmm = (date: Date) => date.toISOString().slice(11, 16);
    await settings(b, { quiet_hours: { start: hhmm(now), end: hhmm(new Date(now.getTime() + 2 * 3600_000)), time_zone: "UTC" } });
    service = pushService();
    await say(a, await conversation(a, b), "late night one");
    await say(a2, await conversation(a2, b), "late night two");
    expect(service.received).toHaveLength(0);
    expect(await messageEmails(b.user.email)).toHaveLength(0);

    await runHousekeeping(env, now.getTime() + 30 * 60_000);
    await drainQueues();
    expect(service.received).toHaveLength(0);
    await runHousekeeping(env, now.getTime() + 2 * 3600_000 + 60_000);
    await drainQueues();
    expect(service.received).toHaveLength(1);
    const summary = JSON.parse(await decrypt(d, service.received[0]!.body)) as { title: string };
    expect(summary.title).toContain("2 notifications");
    await runHousekeeping(env, now.getTime() + 2 * 3600_000 + 2 * 60_000);
    await drainQueues();
    expect(service.received).toHaveLength(1);
  });
});
