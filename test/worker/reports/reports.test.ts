/** Reports, blocks and suspension (docs/decisions/015). */
import { env } from "cloudflare:test";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../../../worker/app";
import { REPORT_TEXTS } from "../../../worker/contract/reports";
import { adminLogin, api, authed, connect, conversationOf, insertListing, json, open, post, type Session, signUp, ticketOf } from "../helpers";

const SUSPENDED = "Your account is suspended. Contact support.";
let adminToken: string;
let owner: Session;
let renter: Session;
let stranger: Session;
let conversationId: string;

const as = (s: Session | string, path: string, method = "GET", body?: unknown) =>
  api(path, authed(typeof s === "string" ? s : s.access_token, { method, ...(body !== undefined && { body: JSON.stringify(body), headers: { "content-type": "application/json" } }) }));
const admin = (path: string, method = "GET", body?: unknown) => as(adminToken, path, method, body);

beforeAll(async () => {
  adminToken = await adminLogin();
  owner = await signUp("reports-owner@ufl.edu", "secret-pass-1");
  renter = await signUp("reports-renter@ufl.edu");
  stranger = await signUp("reports-stranger@ufl.edu");
  await insertListing(owner.user.id, "r01");
  await insertListing(owner.user.id, "r02");
  await insertListing(owner.user.id, "r03", { verification_status: "pending" });
  conversationId = await conversationOf(renter, owner);
});

describe("filing reports", () => {
  it("a listing report needs a signed-in reporter who can see the listing and does not own it", async () => {
    expect((await post("/api/v1/reports", { kind: "listing", listing_id: "r01", reason: "scam" })).status).toBe(401);
    const own = await as(owner, "/api/v1/reports", "POST", { kind: "listing", listing_id: "r01", reason: "scam" });
    expect(own.status).toBe(403);
    expect(await json(own)).toMatchObject({ detail: REPORT_TEXTS.ownListing });
    // A pending listing is public to nobody: not found, as for any listing one cannot see.
    expect((await as(renter, "/api/v1/reports", "POST", { kind: "listing", listing_id: "r03", reason: "scam" })).status).toBe(404);
    expect((await as(renter, "/api/v1/reports", "POST", { kind: "listing", listing_id: "nope", reason: "scam" })).status).toBe(404);
  });

  it("validates the reason, and requires details for other", async () => {
    const bad = await as(renter, "/api/v1/reports", "POST", { kind: "listing", listing_id: "r01", reason: "boring" });
    expect(bad.status).toBe(422);
    const other = await as(renter, "/api/v1/reports", "POST", { kind: "listing", listing_id: "r01", reason: "other" });
    expect(other.status).toBe(422);
    expect(await json(other)).toMatchObject({ detail: REPORT_TEXTS.detailsRequired });
    const long = await as(renter, "/api/v1/reports", "POST", { kind: "listing", listing_id: "r01", reason: "other", details: "x".repeat(1001) });
    expect(long.status).toBe(422);
    expect((await as(renter, "/api/v1/reports", "POST", { kind: "nothing" })).status).toBe(422);
    const notJson = await api("/api/v1/reports", authed(renter.access_token, { method: "POST", body: "{" }));
    expect(notJson.status).toBe(400);
  });

  it("one open report per reporter and target: a repeat answers the existing one", async () => {
    const first = await as(renter, "/api/v1/reports", "POST", { kind: "listing", listing_id: "r02", reason: "taken", details: "Gone since May" });
    expect(first.status).toBe(201);
    const { data } = await json<{ data: { id: string; reason_label: string; reported_user_id: string; status: string } }>(first);
    expect(data).toMatchObject({ reason_label: "Already taken", reported_user_id: owner.user.id, status: "open" });
    const again = await as(renter, "/api/v1/reports", "POST", { kind: "listing", listing_id: "r02", reason: "scam" });
    expect(again.status).toBe(200);
    expect((await json<{ data: { id: string } }>(again)).data.id).toBe(data.id);
  });

  it("a user report only for someone the reporter has a conversation with", async () => {
    const never = await as(stranger, "/api/v1/reports", "POST", { kind: "user", user_id: owner.user.id, reason: "inappropriate" });
    expect(never.status).toBe(403);
    expect(await json(never)).toMatchObject({ detail: REPORT_TEXTS.noConversation });
    // Naming a conversation that is not theirs is refused too.
    const otherConv = await as(stranger, "/api/v1/reports", "POST", { kind: "user", user_id: renter.user.id, conversation_id: conversationId, reason: "other", details: "x" });
    expect(otherConv.status).toBe(403);
    expect((await as(renter, "/api/v1/reports", "POST", { kind: "user", user_id: renter.user.id, reason: "scam" })).status).toBe(400);
    const ok = await as(renter, "/api/v1/reports", "POST", { kind: "user", user_id: owner.user.id, conversation_id: conversationId, reason: "discriminatory" });
    expect(ok.status).toBe(201);
  });
});

describe("the staff queue", () => {
  it("is refused to non-admins, and a user token never opens it", async () => {
    for (const [method, path, body] of [
      ["GET", "/api/v1/admin/reports"],
      ["POST", "/api/v1/admin/reports/x/resolve", { action: "dismiss" }],
      ["POST", "/api/v1/admin/users/x/unsuspend"],
    ] as const) {
      expect((await api(path, { method, body: body && JSON.stringify(body) })).status).toBe(401);
      expect((await as(renter, path, method, body)).status).toBe(401);
    }
  });

  it("lists open reports with names, title, label and open counts; bad input is 4xx", async () => {
    await as(stranger, "/api/v1/reports", "POST", { kind: "listing", listing_id: "r02", reason: "wrong_info" });
    const res = await admin("/api/v1/admin/reports?status=open");
    expect(res.status).toBe(200);
    const { reports } = await json<{ reports: Record<string, unknown>[] }>(res);
    const r02 = reports.filter((r) => r.listing_id === "r02");
    expect(r02).toHaveLength(2);
    expect(r02[0]).toMatchObject({ listing_title: "Listing r02", open_reports_on_target: 2, reported_user: { id: owner.user.id, name: "Test User", suspended: false } });
    expect(r02.map((r) => r.reason_label).sort()).toEqual(["Already taken", "Wrong information"]);
    expect((await admin("/api/v1/admin/reports?status=weird")).status).toBe(422);
    expect((await admin("/api/v1/admin/reports?last_evaluated_key=zzz")).status).toBe(400);
    expect((await admin("/api/v1/admin/reports/none/resolve", "POST", { action: "dismiss" })).status).toBe(404);
    const first = reports[0]!.id as string;
    expect((await admin(`/api/v1/admin/reports/${first}/resolve`, "POST", { action: "ban" })).status).toBe(422);
  });

  it("dismiss resolves once (a second try is 409), audited; hide_listing hides the listing", async () => {
    const { data: rep } = await json<{ data: { id: string } }>(await as(stranger, "/api/v1/reports", "POST", { kind: "listing", listing_id: "r01", reason: "inappropriate" }));
    const hide = await admin(`/api/v1/admin/reports/${rep.id}/resolve`, "POST", { action: "hide_listing" });
    expect(hide.status).toBe(200);
    expect(await json(hide)).toMatchObject({ report: { status: "resolved", resolution: "hide_listing" } });
    expect((await api("/api/v1/subleases/r01")).status).toBe(404);
    expect((await admin(`/api/v1/admin/reports/${rep.id}/resolve`, "POST", { action: "dismiss" })).status).toBe(409);
    const resolved = await json<{ reports: { id: string }[] }>(await admin("/api/v1/admin/reports?status=resolved"));
    expect(resolved.reports.map((r) => r.id)).toContain(rep.id);
    const { audit } = await json<{ audit: { action: string; item_id: string | null }[] }>(await admin("/api/v1/admin/audit"));
    expect(audit.some((a) => a.action === "report_resolve" && a.item_id === rep.id)).toBe(true);
    // Restore for the next tests.
    await admin("/api/v1/admin/listings/r01", "PATCH", { moderation_status: "visible" });
  });
});

describe("suspension", () => {
  it("suspend_user blocks sign-in, refresh and existing tokens, and takes the listings out of browse; unsuspend restores", async () => {
    const target = await signUp("reports-suspendee@ufl.edu", "secret-pass-1");
    await insertListing(target.user.id, "r10");
    await insertListing(target.user.id, "r11", { moderation_status: "hidden" });
    expect((await api("/api/v1/subleases/r10")).status).toBe(200);
    const { data: rep } = await json<{ data: { id: string } }>(await as(renter, "/api/v1/reports", "POST", { kind: "listing", listing_id: "r10", reason: "scam" }));

    const res = await admin(`/api/v1/admin/reports/${rep.id}/resolve`, "POST", { action: "suspend_user" });
    expect(res.status).toBe(200);

    const login = await post("/api/v1/auth/login", { email: "reports-suspendee@ufl.edu", password: "secret-pass-1" });
    expect(login.status).toBe(403);
    expect(await json(login)).toMatchObject({ detail: SUSPENDED });
    // A wrong password still says only that (no hint the account exists and is suspended).
    expect((await post("/api/v1/auth/login", { email: "reports-suspendee@ufl.edu", password: "wrong-pass-1" })).status).toBe(401);
    const profile = await as(target, "/api/v1/users/profile");
    expect(profile.status).toBe(403);
    expect(await json(profile)).toMatchObject({ detail: SUSPENDED });
    const refresh = await post("/api/v1/auth/refresh-token", { refresh_token: target.refresh_token });
    expect(refresh.status).toBe(403);
    expect(await json(refresh)).toMatchObject({ detail: SUSPENDED });

    expect((await api("/api/v1/subleases/r10")).status).toBe(404);
    const browse = await json<{ data: { id: string }[] }>(await api("/api/v1/subleases?limit=100"));
    expect(browse.data.map((l) => l.id)).not.toContain("r10");
    const users = await json<{ users: { id: string; suspended_at: string | null }[] }>(await admin("/api/v1/admin/users"));
    expect(users.users.find((u) => u.id === target.user.id)?.suspended_at).toBeTruthy();
    const { audit } = await json<{ audit: { action: string; item_id: string | null }[] }>(await admin("/api/v1/admin/audit"));
    expect(audit.some((a) => a.action === "user_suspend" && a.item_id === target.user.id)).toBe(true);

    const lift = await admin(`/api/v1/admin/users/${target.user.id}/unsuspend`, "POST");
    expect(lift.status).toBe(200);
    expect(await json(lift)).toEqual({ success: true, restored_listings: 1 });
    expect((await api("/api/v1/subleases/r10")).status).toBe(200);
    // Staff's own hiding is not undone by lifting a suspension.
    expect((await api("/api/v1/subleases/r11")).status).toBe(404);
    expect((await post("/api/v1/auth/login", { email: "reports-suspendee@ufl.edu", password: "secret-pass-1" })).status).toBe(200);
    // The refresh token revoked by the suspension stays dead after it is lifted.
    expect((await post("/api/v1/auth/refresh-token", { refresh_token: target.refresh_token })).status).toBe(401);
    expect((await admin("/api/v1/admin/users/nobody/unsuspend", "POST")).status).toBe(404);
  });
});

describe("suspension and Google sign-in", () => {
  it("a suspended account linked to Google is refused with the same words", async () => {
    const target = await signUp("reports-google@ufl.edu");
    const { publicKey, privateKey } = await generateKeyPair("RS256");
    const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
    const JWKS_URL = "https://google-keys.test/reports-certs";
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => Response.json({ keys: [jwk] }));
    try {
      const testEnv = { ...env, GOOGLE_CLIENT_ID: "client-123.apps.googleusercontent.com", GOOGLE_JWKS_URL: JWKS_URL };
      const token = await new SignJWT({ email: "reports-google@ufl.edu", email_verified: true })
        .setProtectedHeader({ alg: "RS256", kid: "k1" })
        .setIssuer("https://accounts.google.com")
        .setAudience(testEnv.GOOGLE_CLIENT_ID)
        .setSubject("google-sub-reports")
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(privateKey);
      const callTo = (path: string, body: Record<string, unknown>) =>
        createApp().fetch(
          new Request(`http://localhost/api/v1/auth/${path}`, { method: "POST", body: JSON.stringify(body), headers: { "cf-connecting-ip": "192.0.2.77" } }),
          testEnv,
        );
      const call = () => callTo("google-login", { token });
      // A verified password account is linked only with its password: a Google sign-in alone never takes it over.
      expect((await call()).status).toBe(409);
      expect((await callTo("google-link", { token, password: "secret-pass-1" })).status).toBe(200);
      expect((await call()).status).toBe(200);
      const { data: rep } = await json<{ data: { id: string } }>(await as(renter, "/api/v1/reports", "POST", { kind: "user", user_id: target.user.id, reason: "scam", conversation_id: await conversationOf(renter, target) }));
      spy.mockRestore();
      expect((await admin(`/api/v1/admin/reports/${rep.id}/resolve`, "POST", { action: "suspend_user" })).status).toBe(200);
      vi.spyOn(globalThis, "fetch").mockImplementation(async () => Response.json({ keys: [jwk] }));
      const refused = await call();
      expect(refused.status).toBe(403);
      expect(await json(refused)).toMatchObject({ detail: SUSPENDED });
    } finally {
      vi.restoreAllMocks();
    }
  });
});

describe("suspension and sockets", () => {
  it("closes the suspended user's inbox and conversation sockets; a ticket from before does not reopen them", async () => {
    const target = await signUp("reports-sockets@ufl.edu");
    const id = await conversationOf(renter, target);
    const ticket = () => ticketOf(target);
    const inbox = open(await connect(`/parties/inbox/${target.user.id}?token=${await ticket()}`));
    const room = open(await connect(`/parties/conversation/${id}?token=${await ticket()}`));
    const spare = await ticket();
    const other = open(await connect(`/parties/conversation/${id}?token=${await ticketOf(renter)}`));
    const { data: rep } = await json<{ data: { id: string } }>(await as(renter, "/api/v1/reports", "POST", { kind: "user", user_id: target.user.id, reason: "scam" }));
    expect((await admin(`/api/v1/admin/reports/${rep.id}/resolve`, "POST", { action: "suspend_user" })).status).toBe(200);
    expect(await inbox.closed).toMatchObject({ code: 4410 });
    expect(await room.closed).toMatchObject({ code: 4410 });
    expect(await other.quiet()).toBe(true);
    expect((await connect(`/parties/inbox/${target.user.id}?token=${spare}`)).status).toBe(401);
    expect((await as(target, "/api/v1/messages/socket-ticket", "POST")).status).toBe(403);
    other.socket.close();
  });
});

describe("blocks", () => {
  it("needs a user; blocking yourself is 400, an unknown user 404", async () => {
    expect((await api("/api/v1/users/blocks")).status).toBe(401);
    expect((await as(owner, "/api/v1/users/blocks", "POST", { user_id: owner.user.id })).status).toBe(400);
    expect((await as(owner, "/api/v1/users/blocks", "POST", { user_id: "nobody" })).status).toBe(404);
    expect((await as(owner, "/api/v1/users/blocks", "POST", {})).status).toBe(422);
  });

  it("the blocked cannot send or start a conversation; the blocker's list and unread count leave it out until unblocked", async () => {
    const sent = await as(renter, `/api/v1/messages/conversations/${conversationId}/send`, "POST", { text: "hello before" });
    expect(sent.status).toBe(201);
    expect((await json<{ data: { unread_count: number } }>(await as(owner, "/api/v1/messages/unread-count"))).data.unread_count).toBeGreaterThan(0);

    const block = await as(owner, "/api/v1/users/blocks", "POST", { user_id: renter.user.id });
    expect(block.status).toBe(201);
    const list = await json<{ data: { id: string; name: string }[] }>(await as(owner, "/api/v1/users/blocks"));
    expect(list.data).toEqual([expect.objectContaining({ id: renter.user.id, name: "Test User" })]);
    // Someone else's blocks are their own.
    expect((await json<{ data: unknown[] }>(await as(stranger, "/api/v1/users/blocks"))).data).toEqual([]);

    const refused = await as(renter, `/api/v1/messages/conversations/${conversationId}/send`, "POST", { text: "are you there?" });
    expect(refused.status).toBe(403);
    expect(await json(refused)).toMatchObject({ detail: REPORT_TEXTS.blockedSend });
    const start = await as(renter, "/api/v1/messages/conversations", "POST", { participant_id: owner.user.id });
    expect(start.status).toBe(403);
    // While the block stands the blocker does not write either: they are told to unblock.
    const own = await as(owner, `/api/v1/messages/conversations/${conversationId}/send`, "POST", { text: "please stop" });
    expect(own.status).toBe(403);
    expect(await json(own)).toMatchObject({ detail: "Unblock Test to send messages." });
    // The blocker may still open the conversation (Message on the listing): the same one, shown with its state.
    expect((await as(owner, "/api/v1/messages/conversations", "POST", { participant_id: renter.user.id })).status).toBe(200);
    // Reopened by id, each side sees the other's name and whether they may write; the blocked person is not told why.
    const seenByOwner = await json<{ data: { id: string; participant_name: string }; reply: string }>(await as(owner, `/api/v1/messages/conversations/${conversationId}`));
    expect(seenByOwner).toMatchObject({ data: { id: conversationId, participant_name: "Test User" }, reply: "you_blocked" });
    const seenByRenter = await json<{ data: { participant_name: string }; reply: string }>(await as(renter, `/api/v1/messages/conversations/${conversationId}`));
    expect(seenByRenter.reply).toBe("closed");
    expect(JSON.stringify(seenByRenter)).not.toMatch(/block/i);
    expect((await as(stranger, `/api/v1/messages/conversations/${conversationId}`)).status).toBe(404);

    const mine = await json<{ data: { id: string }[] }>(await as(owner, "/api/v1/messages/conversations"));
    expect(mine.data.map((c) => c.id)).not.toContain(conversationId);
    expect((await json<{ data: { unread_count: number } }>(await as(owner, "/api/v1/messages/unread-count"))).data.unread_count).toBe(0);
    // The blocked person still sees the conversation.
    expect((await json<{ data: { id: string }[] }>(await as(renter, "/api/v1/messages/conversations"))).data.map((c) => c.id)).toContain(conversationId);

    expect((await as(owner, `/api/v1/users/blocks/${renter.user.id}`, "DELETE")).status).toBe(204);
    expect((await json<{ data: unknown[] }>(await as(owner, "/api/v1/users/blocks"))).data).toEqual([]);
    expect((await json<{ data: { id: string }[] }>(await as(owner, "/api/v1/messages/conversations"))).data.map((c) => c.id)).toContain(conversationId);
    expect((await as(renter, `/api/v1/messages/conversations/${conversationId}/send`, "POST", { text: "thanks" })).status).toBe(201);
    expect((await as(owner, `/api/v1/messages/conversations/${conversationId}/send`, "POST", { text: "ok" })).status).toBe(201);
    expect((await json<{ reply: string }>(await as(owner, `/api/v1/messages/conversations/${conversationId}`))).reply).toBe("open");
    expect((await json<{ reply: string }>(await as(renter, `/api/v1/messages/conversations/${conversationId}`))).reply).toBe("open");
  });
});
