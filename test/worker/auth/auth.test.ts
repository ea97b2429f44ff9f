import { env } from "cloudflare:test";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../../../worker/app";
import { hashConcurrencyPeak, hashPassword, MAX_CONCURRENT_HASHES, needsRehash, useLightScryptCostForTests, verifyPassword } from "../../../worker/services/passwords";
import { signAccessToken } from "../../../worker/services/tokens";
import { api, authed, connect, insertListing, json, latestCode, open, post, type Session, signUp } from "../helpers";

afterEach(() => vi.restoreAllMocks());

describe("sign-up and email verification", () => {
  it("registers, mails a 6-digit code stored only hashed, and the code signs the user in", async () => {
    const res = await post("/api/v1/auth/register", {
      email: "Ana@UFL.edu",
      password: "secret-pass-1",
      first_name: "Ana",
      last_name: "Diaz",
      university_id: 1,
    });
    expect(res.status).toBe(201);
    const body = await json<{ message: string; user_id: string }>(res);
    expect(body.user_id).toMatch(/^[0-9A-Za-z]{21}$/);

    const code = await latestCode("ana@ufl.edu");
    const stored = await env.DB.prepare("SELECT code_hash FROM email_codes WHERE email = ?").bind("ana@ufl.edu").first<{ code_hash: string }>();
    expect(stored!.code_hash).not.toContain(code);

    const login = await post("/api/v1/auth/login", { email: "ana@ufl.edu", password: "secret-pass-1" });
    expect(login.status).toBe(403);
    expect(await json(login)).toMatchObject({ code: "email_not_verified" });

    const verified = await post("/api/v1/auth/verify-email", { email: "ana@ufl.edu", code });
    expect(verified.status).toBe(200);
    const session = await json<Session & { token_type: string }>(verified);
    expect(session.token_type).toBe("bearer");
    expect(session.user).toMatchObject({ email: "ana@ufl.edu", first_name: "Ana", is_verified: true, email_verification_status: "verified", university_id: 1 });
    expect(session.user.university).toBe("University of Alaska Anchorage");
    expect(JSON.stringify(session)).not.toContain("scrypt$");

    // A code works once.
    expect((await post("/api/v1/auth/verify-email", { email: "ana@ufl.edu", code })).status).toBe(400);
  });

  it("makes the university chosen at sign-up the preferred one (set at creation, kept on verification)", async () => {
    await post("/api/v1/auth/register", { email: "pref@ufl.edu", password: "secret-pass-1", first_name: "Pia", last_name: "Ro", university_id: 2 });
    // An older account without a preferred university gets it when the email is verified.
    await env.DB.prepare("UPDATE users SET preferred_university_id = NULL WHERE email = ?").bind("pref@ufl.edu").run();
    const verified = await post("/api/v1/auth/verify-email", { email: "pref@ufl.edu", code: await latestCode("pref@ufl.edu") });
    const session = await json<Session>(verified);
    expect(session.user).toMatchObject({ university_id: 2, preferred_university_id: 2 });

    await post("/api/v1/auth/register", { email: "pref2@ufl.edu", password: "secret-pass-1", first_name: "Pia", last_name: "Ro", university_id: 3 });
    const row = await env.DB.prepare("SELECT preferred_university_id AS id FROM users WHERE email = ?").bind("pref2@ufl.edu").first<{ id: number }>();
    expect(row!.id).toBe(3);
  });

  it("refuses a taken email (409), bad fields (422 with errors) and an unknown university", async () => {
    await signUp("taken@ufl.edu");
    const taken = await post("/api/v1/auth/register", { email: "TAKEN@ufl.edu", password: "secret-pass-1", first_name: "A", last_name: "B" });
    expect(taken.status).toBe(409);
    const bad = await post("/api/v1/auth/register", { email: "nope", password: "123", first_name: "", last_name: "B" });
    expect(bad.status).toBe(422);
    const body = await json<{ errors: { path: string; message: string }[] }>(bad);
    expect(body.errors.map((e) => e.path).sort()).toEqual(["email", "first_name", "password"]);
    expect(body.errors.find((e) => e.path === "password")!.message).toBe("Password must be at least 6 characters long");
    const uni = await post("/api/v1/auth/register", { email: "u@ufl.edu", password: "secret-pass-1", first_name: "A", last_name: "B", university_id: 99999 });
    expect(uni.status).toBe(422);
    expect(await json(uni)).toMatchObject({ detail: "Please choose a university from the list" });
  });

  it("ends a code for an address after 5 wrong tries from it (not for others) and enforces the 60 s resend cooldown", async () => {
    const home = { "cf-connecting-ip": "192.0.2.78" };
    await post("/api/v1/auth/register", { email: "tries@ufl.edu", password: "secret-pass-1", first_name: "T", last_name: "R" }, home);
    const code = await latestCode("tries@ufl.edu");
    const wrong = code === "000000" ? "111111" : "000000";
    const guesser = { "cf-connecting-ip": "192.0.2.77" };
    for (let i = 0; i < 5; i++) {
      const res = await post("/api/v1/auth/verify-email", { email: "tries@ufl.edu", code: wrong }, guesser);
      expect(res.status).toBe(400);
      expect(await json(res)).toEqual({ detail: "Invalid or expired verification code" });
    }
    // That address has had its five tries, even with the right code; the owner elsewhere has not.
    expect((await post("/api/v1/auth/verify-email", { email: "tries@ufl.edu", code }, guesser)).status).toBe(400);
    const row = await env.DB.prepare("SELECT attempts, consumed_at FROM email_codes WHERE email = ?").bind("tries@ufl.edu").first<{ attempts: number; consumed_at: string | null }>();
    expect(row).toEqual({ attempts: 5, consumed_at: null });

    // The 60 s spacing is per requesting address: the sign-up's own network waits.
    const resend = await post("/api/v1/auth/send-verification-code", { email: "tries@ufl.edu" }, home);
    expect(resend.status).toBe(429);
    const { retry_after } = await json<{ retry_after: number }>(resend);
    expect(retry_after).toBeGreaterThan(0);
    expect(retry_after).toBeLessThanOrEqual(60);

    // Unknown addresses get the same 200 answer (no account enumeration).
    const unknown = await post("/api/v1/auth/send-verification-code", { email: "ghost@ufl.edu" });
    expect(unknown.status).toBe(200);
  });

  it("expires codes after 15 minutes", async () => {
    await post("/api/v1/auth/register", { email: "late@ufl.edu", password: "secret-pass-1", first_name: "L", last_name: "T" });
    const code = await latestCode("late@ufl.edu");
    await env.DB.prepare("UPDATE email_codes SET expires_at = ? WHERE email = ?").bind(new Date(Date.now() - 1000).toISOString(), "late@ufl.edu").run();
    expect((await post("/api/v1/auth/verify-email", { email: "late@ufl.edu", code })).status).toBe(400);
  });
});

describe("sign-in", () => {
  it("answers a wrong password and an unknown email the same way", async () => {
    await signUp("pat@ufl.edu", "right-password");
    const wrong = await post("/api/v1/auth/login", { email: "pat@ufl.edu", password: "wrong-password" });
    const unknown = await post("/api/v1/auth/login", { email: "nobody@ufl.edu", password: "wrong-password" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await json(wrong)).toEqual({ detail: "Incorrect email or password" });
    expect(await json(unknown)).toEqual({ detail: "Incorrect email or password" });
    const ok = await post("/api/v1/auth/login", { email: " PAT@ufl.edu ", password: "right-password" });
    expect(ok.status).toBe(200);
    expect(await json(ok)).toMatchObject({ token_type: "bearer", user: { email: "pat@ufl.edu" } });
  });
});

describe("code-sending routes", () => {
  it("answer the same, throttles included, whether or not the account exists (register keeps its 409)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      await signUp("enumerated@ufl.edu");
      let network = 0;
      for (const route of ["send-verification-code", "forgot-password", "send-sign-in-code"]) {
        const answers: unknown[] = [];
        for (const email of ["enumerated@ufl.edu", "never-registered@ufl.edu"]) {
          const net = { "cf-connecting-ip": `198.18.77.${++network}` };
          const first = await post(`/api/v1/auth/${route}`, { email }, net);
          const again = await post(`/api/v1/auth/${route}`, { email }, net);
          answers.push([first.status, await json(first), again.status, await json(again)]);
        }
        expect(answers[0], route).toEqual(answers[1]);
        expect(answers[0], route).toEqual([200, { message: expect.any(String) }, 429, { detail: "Please wait 60 seconds before requesting a new code.", retry_after: 60 }]);
      }
      // Only the account's owner was mailed (a verified account gets no verification code).
      const mailed = await json<{ data: { to: string; subject: string }[] }>(await api("/api/v1/dev/emails?to=never-registered%40ufl.edu"));
      expect(mailed.data).toEqual([]);
      const owner = await json<{ data: { subject: string }[] }>(await api("/api/v1/dev/emails?to=enumerated%40ufl.edu"));
      expect(owner.data).toHaveLength(3); // sign-up, reset, sign-in
      // A student who signs up must still learn the email is taken.
      expect((await post("/api/v1/auth/register", { email: "enumerated@ufl.edu", password: "secret-pass-1", first_name: "A", last_name: "B" })).status).toBe(409);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("sessions", () => {
  it("rotates refresh tokens; reusing a rotated one after the grace window revokes the whole family", async () => {
    const first = await signUp("rot@ufl.edu");
    const r1 = await post("/api/v1/auth/refresh-token", { refresh_token: first.refresh_token });
    expect(r1.status).toBe(200);
    const second = await json<Session>(r1);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.user.email).toBe("rot@ufl.edu");

    // The old token again, past the 30 s grace: theft detected, family revoked, the newest token dies too.
    await env.DB.prepare("UPDATE refresh_tokens SET rotated_at = ? WHERE rotated_at IS NOT NULL").bind(new Date(Date.now() - 31_000).toISOString()).run();
    expect((await post("/api/v1/auth/refresh-token", { refresh_token: first.refresh_token })).status).toBe(401);
    expect((await post("/api/v1/auth/refresh-token", { token: second.refresh_token })).status).toBe(401);
  });

  it("two tabs refreshing at the same moment both get the same new pair, and the session lives on", async () => {
    const s = await signUp("tabs@ufl.edu");
    const [a, b] = await Promise.all([
      post("/api/v1/auth/refresh-token", { refresh_token: s.refresh_token }),
      post("/api/v1/auth/refresh-token", { refresh_token: s.refresh_token }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const [pairA, pairB] = [await json<Session>(a), await json<Session>(b)];
    expect(pairA.refresh_token).toBe(pairB.refresh_token);
    expect(pairA.access_token).toBe(pairB.access_token);
    // A third tab a few seconds later (still within the window) hears the same answer.
    const late = await json<Session>(await post("/api/v1/auth/refresh-token", { refresh_token: s.refresh_token }));
    expect(late.refresh_token).toBe(pairA.refresh_token);
    // Only one successor exists, and it works.
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM refresh_tokens WHERE user_id = ?").bind(s.user.id).first<{ n: number }>();
    expect(rows!.n).toBe(2);
    expect((await post("/api/v1/auth/refresh-token", { refresh_token: pairA.refresh_token })).status).toBe(200);
  });

  it("ends a session 90 days after sign-in however often it was refreshed", async () => {
    const s = await signUp("ninety@ufl.edu");
    const soon = new Date(Date.now() + 86_400_000).toISOString();
    await env.DB.prepare("UPDATE refresh_tokens SET family_expires_at = ? WHERE user_id = ?").bind(soon, s.user.id).run();
    const next = await json<Session>(await post("/api/v1/auth/refresh-token", { refresh_token: s.refresh_token }));
    // Rotation never reaches past the family's end (a sliding 30 days would).
    const row = await env.DB.prepare("SELECT expires_at, family_expires_at FROM refresh_tokens WHERE user_id = ? AND rotated_at IS NULL").bind(s.user.id).first<{ expires_at: string; family_expires_at: string }>();
    expect(row).toEqual({ expires_at: soon, family_expires_at: soon });
    await env.DB.prepare("UPDATE refresh_tokens SET family_expires_at = ? WHERE user_id = ?").bind(new Date(Date.now() - 1000).toISOString(), s.user.id).run();
    const res = await post("/api/v1/auth/refresh-token", { refresh_token: next.refresh_token });
    expect(res.status).toBe(401);
    const fresh = await json<Session>(await post("/api/v1/auth/login", { email: "ninety@ufl.edu", password: "secret-pass-1" }));
    const started = await env.DB.prepare("SELECT family_expires_at FROM refresh_tokens WHERE token_hash = (SELECT token_hash FROM refresh_tokens WHERE user_id = ? ORDER BY created_at DESC LIMIT 1)").bind(fresh.user.id).first<{ family_expires_at: string }>();
    expect(Date.parse(started!.family_expires_at) - Date.now()).toBeGreaterThan(89 * 86_400_000);
  });

  it("logout revokes the refresh token", async () => {
    const s = await signUp("out@ufl.edu");
    expect((await post("/api/v1/auth/logout", { refresh_token: s.refresh_token })).status).toBe(204);
    expect((await post("/api/v1/auth/refresh-token", { refresh_token: s.refresh_token })).status).toBe(401);
  });

  it("refuses a missing, tampered, foreign-signed or expired access token with 401", async () => {
    const s = await signUp("jwt@ufl.edu");
    expect((await api("/api/v1/users/profile", authed(s.access_token))).status).toBe(200);
    expect((await api("/api/v1/users/profile")).status).toBe(401);
    expect((await api("/api/v1/users/profile", authed(s.access_token.slice(0, -3) + "abc"))).status).toBe(401);
    const foreign = await signAccessToken("some-other-secret-0123456789abcdefgh", s.user.id);
    expect((await api("/api/v1/users/profile", authed(foreign))).status).toBe(401);
    const expired = await signAccessToken(env.JWT_SECRET, s.user.id, -1);
    const res = await api("/api/v1/users/profile", authed(expired));
    expect(res.status).toBe(401);
    expect(await json(res)).toEqual({ detail: "Not authenticated" });
  });
});

describe("password reset", () => {
  it("resets by emailed code and signs out every session, its access tokens at once", async () => {
    const s = await signUp("forgot@ufl.edu", "old-password");
    expect((await api("/api/v1/users/profile", authed(s.access_token))).status).toBe(200);
    await env.DB.prepare("UPDATE email_codes SET created_at = ? WHERE email = ?").bind(new Date(Date.now() - 120_000).toISOString(), "forgot@ufl.edu").run();
    expect((await post("/api/v1/auth/forgot-password", { email: "forgot@ufl.edu" })).status).toBe(200);
    const code = await latestCode("forgot@ufl.edu");
    const bad = await post("/api/v1/auth/reset-password", { email: "forgot@ufl.edu", code: code === "123456" ? "654321" : "123456", new_password: "new-password" });
    expect(bad.status).toBe(400);
    const ok = await post("/api/v1/auth/reset-password", { email: "forgot@ufl.edu", code, new_password: "new-password" });
    expect(ok.status).toBe(200);
    // The access token issued before the reset is refused right away, not 15 minutes later.
    const stale = await api("/api/v1/users/profile", authed(s.access_token));
    expect(stale.status).toBe(401);
    expect(await json(stale)).toEqual({ detail: "Not authenticated" });
    expect((await post("/api/v1/auth/refresh-token", { refresh_token: s.refresh_token })).status).toBe(401);
    expect((await post("/api/v1/auth/login", { email: "forgot@ufl.edu", password: "old-password" })).status).toBe(401);
    const fresh = await post("/api/v1/auth/login", { email: "forgot@ufl.edu", password: "new-password" });
    expect(fresh.status).toBe(200);
    // A session started after the reset works.
    expect((await api("/api/v1/users/profile", authed((await json<Session>(fresh)).access_token))).status).toBe(200);
  });

  it("a token from before the reset reads the owner's listings as a visitor (404 pending, public view approved)", async () => {
    const email = "reset-listings@ufl.edu";
    const s = await signUp(email, "old-password");
    await insertListing(s.user.id, "rst01", { verification_status: "pending" });
    await insertListing(s.user.id, "rst02");
    const read = (id: string, token: string) => api(`/api/v1/subleases/${id}`, authed(token));
    // Before: the owner's view (review fields such as rejection_reason).
    expect((await read("rst01", s.access_token)).status).toBe(200);
    expect((await json<{ data: Record<string, unknown> }>(await read("rst02", s.access_token))).data).toHaveProperty("rejection_reason");
    const home = { "cf-connecting-ip": "192.0.2.90" };
    expect((await post("/api/v1/auth/forgot-password", { email }, home)).status).toBe(200);
    expect((await post("/api/v1/auth/reset-password", { email, code: await latestCode(email), new_password: "new-password" }, home)).status).toBe(200);
    const pending = await read("rst01", s.access_token);
    expect(pending.status).toBe(404);
    expect(await json(pending)).toMatchObject({ detail: expect.any(String) });
    const approved = await read("rst02", s.access_token);
    expect(approved.status).toBe(200);
    const { data } = await json<{ data: Record<string, unknown> }>(approved);
    expect(data.id).toBe("rst02");
    expect(data).not.toHaveProperty("rejection_reason");
    expect(data).not.toHaveProperty("latitude");
    // A token from after the reset is the owner again.
    const fresh = await json<Session>(await post("/api/v1/auth/login", { email, password: "new-password" }));
    expect((await read("rst01", fresh.access_token)).status).toBe(200);
  });

  it("closes the user's inbox and conversation sockets on reset; the other participant's stay open", async () => {
    const email = "reset-sockets@ufl.edu";
    const s = await signUp(email, "old-password");
    const other = await signUp("reset-sockets-other@ufl.edu");
    const started = await api("/api/v1/messages/conversations", authed(other.access_token, { method: "POST", body: JSON.stringify({ participant_id: s.user.id }), headers: { "content-type": "application/json" } }));
    expect(started.status).toBeLessThan(300);
    const { data: conversation } = await json<{ data: { id: string } }>(started);
    const ticket = async (session: Session) =>
      (await json<{ data: { ticket: string } }>(await api("/api/v1/messages/socket-ticket", authed(session.access_token, { method: "POST" })))).data.ticket;
    const inbox = open(await connect(`/parties/inbox/${s.user.id}?token=${await ticket(s)}`));
    const room = open(await connect(`/parties/conversation/${conversation.id}?token=${await ticket(s)}`));
    const othersRoom = open(await connect(`/parties/conversation/${conversation.id}?token=${await ticket(other)}`));
    const home = { "cf-connecting-ip": "192.0.2.91" };
    expect((await post("/api/v1/auth/forgot-password", { email }, home)).status).toBe(200);
    expect((await post("/api/v1/auth/reset-password", { email, code: await latestCode(email), new_password: "new-password" }, home)).status).toBe(200);
    expect(await inbox.closed).toMatchObject({ code: 4410, reason: "Password reset" });
    expect(await room.closed).toMatchObject({ code: 4410, reason: "Password reset" });
    expect(await othersRoom.quiet()).toBe(true);
    // The old access token cannot get a new ticket.
    expect((await api("/api/v1/messages/socket-ticket", authed(s.access_token, { method: "POST" }))).status).toBe(401);
    othersRoom.socket.close();
  });

  it("guesses at a reset code from another address do not void the code the owner types", async () => {
    const email = "reset-owner@ufl.edu";
    await signUp(email, "old-password");
    await env.DB.prepare("UPDATE email_codes SET created_at = ? WHERE email = ?").bind(new Date(Date.now() - 120_000).toISOString(), email).run();
    await post("/api/v1/auth/forgot-password", { email });
    const code = await latestCode(email);
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0");
    // Twelve wrong guesses at once from one address: exactly five count, the code stays live.
    const attacker = { "cf-connecting-ip": "203.0.113.66" };
    const guesses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => post("/api/v1/auth/reset-password", { email, code: wrong(i), new_password: "attacker-pass" }, attacker)),
    );
    expect(guesses.every((r) => r.status === 400 || r.status === 429)).toBe(true);
    const row = await env.DB.prepare("SELECT attempts, consumed_at FROM email_codes WHERE email = ? AND purpose = 'reset_password'").bind(email).first<{ attempts: number; consumed_at: string | null }>();
    expect(row).toEqual({ attempts: 5, consumed_at: null });
    // The owner, on their own network, types the code: it works.
    const ok = await post("/api/v1/auth/reset-password", { email, code, new_password: "owner-new-pass" }, { "cf-connecting-ip": "198.18.5.5" });
    expect(ok.status).toBe(200);
    expect((await post("/api/v1/auth/login", { email, password: "owner-new-pass" })).status).toBe(200);
  });

  it("60 wrong tries at once from ten addresses count five each and void nothing: the owner's code still works", async () => {
    const email = "reset-many@ufl.edu";
    await signUp(email, "old-password");
    const ownerNet = { "cf-connecting-ip": "198.18.9.9" };
    await post("/api/v1/auth/forgot-password", { email }, ownerNet);
    const code = await latestCode(email);
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0");
    // Ten addresses, six tries each (one more than an address is allowed), all at once.
    const guesses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        post("/api/v1/auth/reset-password", { email, code: wrong(i), new_password: "attacker-pass" }, { "cf-connecting-ip": `198.19.${i % 10}.1` }),
      ),
    );
    expect(guesses.every((r) => r.status === 400 || r.status === 429)).toBe(true);
    const row = await env.DB.prepare("SELECT attempts, consumed_at FROM email_codes WHERE email = ? AND purpose = 'reset_password'").bind(email).first<{ attempts: number; consumed_at: string | null }>();
    expect(row).toEqual({ attempts: 50, consumed_at: null });
    const perAddress = await env.DB.prepare("SELECT tries FROM email_code_tries t JOIN email_codes c ON c.id = t.code_id WHERE c.email = ? AND c.purpose = 'reset_password'").bind(email).all<{ tries: number }>();
    expect(perAddress.results.map((r) => r.tries)).toEqual(Array(10).fill(5));
    const ok = await post("/api/v1/auth/reset-password", { email, code, new_password: "owner-new-pass" }, ownerNet);
    expect(ok.status).toBe(200);
    expect((await post("/api/v1/auth/login", { email, password: "owner-new-pass" })).status).toBe(200);
  });
});

describe("passwords", () => {
  describe("at the production cost", () => {
    // test/worker/setup.ts lightens the cost for the rest of the suite; sign-up and upgrade run at the defaults here.
    beforeAll(() => useLightScryptCostForTests(false));
    afterAll(() => useLightScryptCostForTests(true));
    // Made with N=2^15, r=8, p=3 (the older parameters docs/decisions/004 replaced: 32 MiB a hash) for "old-password-1".
    const OLD_HASH = "scrypt$32768$8$3$cmMBZrlm8sUkR0VDe2x1ww==$rqIIA9GgVk8mfk6HUWwNq0pAb8DkuG0jYDNm8oqCg0o=";

    it("hashes with N=2^13, r=8, p=10 (8 MiB)", async () => {
      expect(await hashPassword("x-password")).toMatch(/^scrypt\$8192\$8\$10\$/);
      expect(needsRehash(OLD_HASH)).toBe(true);
      expect(needsRehash(await hashPassword("x-password"))).toBe(false);
    });

    it("an old-parameter hash still signs in and is upgraded on the way", async () => {
      await env.DB.prepare("INSERT INTO users (id, email, password_hash, first_name, last_name, email_verification_status) VALUES ('old-hash-user', 'oldhash@ufl.edu', ?, 'Old', 'Hash', 'verified')")
        .bind(OLD_HASH)
        .run();
      expect((await post("/api/v1/auth/login", { email: "oldhash@ufl.edu", password: "old-password-1" })).status).toBe(200);
      const row = await env.DB.prepare("SELECT password_hash FROM users WHERE id = 'old-hash-user'").first<{ password_hash: string }>();
      expect(row!.password_hash).toMatch(/^scrypt\$8192\$8\$10\$/);
      expect(await verifyPassword("old-password-1", row!.password_hash)).toBe(true);
      expect((await post("/api/v1/auth/login", { email: "oldhash@ufl.edu", password: "old-password-1" })).status).toBe(200);
      expect((await post("/api/v1/auth/login", { email: "oldhash@ufl.edu", password: "wrong-password" })).status).toBe(401);
    });
  });

  it("runs at most two hashes at once per isolate, queueing the rest", async () => {
    hashConcurrencyPeak({ reset: true });
    const hashes = await Promise.all(Array.from({ length: 10 }, (_, i) => hashPassword(`parallel-${i}`)));
    expect(new Set(hashes).size).toBe(10);
    expect(hashConcurrencyPeak()).toBe(MAX_CONCURRENT_HASHES);
    expect(MAX_CONCURRENT_HASHES).toBe(2);
    expect(await verifyPassword("parallel-3", hashes[3]!)).toBe(true);
  }, 60_000);
});

describe("Google sign-in", () => {
  const JWKS_URL = "https://google-keys.test/certs";
  // One key pair for the file: the worker caches the key set per URL, as it should in production.
  const keys = generateKeyPair("RS256");
  async function setup() {
    const { publicKey, privateKey } = await keys;
    const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
      if (String(input instanceof Request ? input.url : input) !== JWKS_URL) throw new Error(`unexpected fetch ${String(input)}`);
      return Response.json({ keys: [jwk] });
    });
    const app = createApp();
    const testEnv = { ...env, GOOGLE_CLIENT_ID: "client-123.apps.googleusercontent.com", GOOGLE_JWKS_URL: JWKS_URL };
    const sign = (claims: Record<string, unknown>, audience = testEnv.GOOGLE_CLIENT_ID, expiresIn = "5m") =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: "RS256", kid: "k1" })
        .setIssuer("https://accounts.google.com")
        .setAudience(audience)
        .setSubject(`google-sub-${String(claims.email)}`)
        .setIssuedAt()
        .setExpirationTime(expiresIn)
        .sign(privateKey);
    const call = (token: string) => link("google-login", { token });
    const link = (path: string, body: Record<string, unknown>) =>
      app.fetch(
        new Request(`http://localhost/api/v1/auth/${path}`, {
          method: "POST",
          body: JSON.stringify(body),
          headers: { "cf-connecting-ip": "192.0.2.10" },
        }),
        testEnv,
      );
    return { sign, call, link };
  }

  it("creates the account on first use with the email verified, then signs the same user in", async () => {
    const { sign, call } = await setup();
    const token = await sign({ email: "gina@ufl.edu", email_verified: true, given_name: "Gina", family_name: "Lee" });
    const first = await call(token);
    expect(first.status).toBe(200);
    const body = await json<Session>(first);
    expect(body.user).toMatchObject({ email: "gina@ufl.edu", first_name: "Gina", email_verification_status: "verified" });
    // Google vouches for the address: a school's is the account's school email at once (docs/decisions/032).
    expect(body.user).toMatchObject({ school_email_domain: "ufl.edu", school_email: "gina@ufl.edu" });
    const again = await json<Session>(await call(token));
    expect(again.user.id).toBe(body.user.id);
  });

  it("taking over an address registered but never verified ends the squatter's password and sessions", async () => {
    const { sign, call } = await setup();
    await post("/api/v1/auth/register", { email: "squat@ufl.edu", password: "squatter-pass", first_name: "S", last_name: "Q" });
    const squatter = await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind("squat@ufl.edu").first<{ id: string }>();
    await env.DB.prepare("INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, expires_at) VALUES ('sq1', ?, 'fam-sq', 'hash-sq', ?)")
      .bind(squatter!.id, new Date(Date.now() + 86_400_000).toISOString())
      .run();
    const res = await call(await sign({ email: "squat@ufl.edu", email_verified: true, given_name: "Real" }));
    expect(res.status).toBe(200);
    expect((await json<Session>(res)).user.id).toBe(squatter!.id);
    // Its access tokens end too (token version).
    const squatterToken = await signAccessToken(env.JWT_SECRET, squatter!.id);
    expect((await api("/api/v1/users/profile", authed(squatterToken))).status).toBe(401);
    const row = await env.DB.prepare("SELECT password_hash FROM users WHERE id = ?").bind(squatter!.id).first<{ password_hash: string | null }>();
    expect(row!.password_hash).toBeNull();
    expect((await env.DB.prepare("SELECT revoked_at FROM refresh_tokens WHERE id = 'sq1'").first<{ revoked_at: string | null }>())!.revoked_at).not.toBeNull();
    expect((await post("/api/v1/auth/login", { email: "squat@ufl.edu", password: "squatter-pass" })).status).toBe(401);
  });

  const sessionsOf = async (userId: string) =>
    (await env.DB.prepare("SELECT count(*) AS n FROM refresh_tokens WHERE user_id = ?").bind(userId).first<{ n: number }>())!.n;

  it("a verified password account is linked only after its password: 409 link_required first, no session", async () => {
    const { sign, call, link } = await setup();
    const owner = await signUp("owner@ufl.edu", "owner-password");
    const token = await sign({ email: "owner@ufl.edu", email_verified: true });
    const before = await sessionsOf(owner.user.id);
    const asked = await call(token);
    expect(asked.status).toBe(409);
    const body = await json(asked);
    expect(body).toEqual({ detail: expect.stringMatching(/password or a code/), code: "google_link_required", link_required: true, email: "owner@ufl.edu" });
    expect(JSON.stringify(body)).not.toContain("access_token");
    expect(await sessionsOf(owner.user.id)).toBe(before);
    expect((await env.DB.prepare("SELECT google_sub FROM users WHERE id = ?").bind(owner.user.id).first<{ google_sub: string | null }>())!.google_sub).toBeNull();

    // A wrong password links nothing and starts no session; neither does a call without any proof.
    const wrong = await link("google-link", { token, password: "not-the-password" });
    expect(wrong.status).toBe(401);
    expect(await json(wrong)).toEqual({ detail: "Incorrect password" });
    expect((await link("google-link", { token })).status).toBe(422);
    expect(await sessionsOf(owner.user.id)).toBe(before);

    const linked = await link("google-link", { token, password: "owner-password" });
    expect(linked.status).toBe(200);
    expect((await json<Session>(linked)).user.id).toBe(owner.user.id);
    // From now on Google signs them in directly, and the password still works.
    expect((await call(token)).status).toBe(200);
    expect((await post("/api/v1/auth/login", { email: "owner@ufl.edu", password: "owner-password" })).status).toBe(200);
  });

  it("a verified account can be linked with an emailed code instead of its password", async () => {
    const { sign, call, link } = await setup();
    const owner = await signUp("coded@ufl.edu", "owner-password");
    const token = await sign({ email: "coded@ufl.edu", email_verified: true });
    expect((await call(token)).status).toBe(409);
    await env.DB.prepare("UPDATE email_codes SET created_at = ? WHERE email = ?").bind(new Date(Date.now() - 120_000).toISOString(), "coded@ufl.edu").run();
    expect((await link("send-sign-in-code", { email: "coded@ufl.edu" })).status).toBe(200);
    const code = await latestCode("coded@ufl.edu");
    const wrongCode = code === "000000" ? "111111" : "000000";
    expect((await link("google-link", { token, code: wrongCode })).status).toBe(400);
    expect(await sessionsOf(owner.user.id)).toBe(1);
    const linked = await link("google-link", { token, code });
    expect(linked.status).toBe(200);
    expect((await json<Session>(linked)).user.id).toBe(owner.user.id);
    expect((await call(token)).status).toBe(200);
  });

  it("refuses a wrong audience, an expired token and an unverified email", async () => {
    const { sign, call } = await setup();
    expect((await call(await sign({ email: "x@ufl.edu", email_verified: true }, "someone-else"))).status).toBe(401);
    expect((await call(await sign({ email: "x@ufl.edu", email_verified: true }, undefined, "-1m"))).status).toBe(401);
    expect((await call(await sign({ email: "x@ufl.edu", email_verified: false }))).status).toBe(401);
  });

  it("is off (400, button hidden) without a client id", async () => {
    const res = await post("/api/v1/auth/google-login", { token: "x" });
    expect(res.status).toBe(400);
    expect(await json(await api("/api/v1/auth/config"))).toEqual({ google_client_id: null });
  });
});
