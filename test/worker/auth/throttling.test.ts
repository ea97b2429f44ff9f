/**
 * Throttles sized for real people (docs/decisions/010): a campus behind one NAT address signs up
 * freely, while brute force against one account, one code or the staff password is refused.
 */
import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createDb } from "../../../worker/db/client";
import { backoffSeconds, countAttempt, rememberAddress } from "../../../worker/services/auth-throttle";
import { CODE_COMPARISONS_PER_DAY, consumeCode, issueCode } from "../../../worker/services/email-codes";
import { addressKey } from "../../../worker/middleware/rate-limit";
import { api, authed, json, latestCode, post, type Session, signUp, withinOneMinute } from "../helpers";

const CAMPUS = { "cf-connecting-ip": "203.0.113.10" };

describe("a campus behind one address", () => {
  it("lets 50 students sign up, verify and sign in from one address, all at the same moment", async () => {
    // Functional only, at the suite's light scrypt cost: every call succeeds (no per-address limit,
    // code ceiling or hash queue refuses a campus). How long a rush takes at the production cost is
    // measured by the bench (test/bench/signups.mjs, `npm run bench`), where timing belongs.
    const statuses = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const email = `student${i}@campus.edu`;
        const reg = await post("/api/v1/auth/register", { email, password: "campus-pass-1", first_name: "Stu", last_name: "Dent" }, CAMPUS);
        const verify = await post("/api/v1/auth/verify-email", { email, code: await latestCode(email) }, CAMPUS);
        const login = await post("/api/v1/auth/login", { email, password: "campus-pass-1" }, CAMPUS);
        return [reg.status, verify.status, login.status];
      }),
    );
    expect(statuses.flat().length).toBe(150);
    expect(statuses.filter(([reg, verify, login]) => reg !== 201 || verify !== 200 || login !== 200)).toEqual([]);
  });

  it("still has a ceiling per address, and keys IPv6 by its /64", async () => {
    // 1,000 a minute per address; one /64 rotating its interface ids is one address. The limiter
    // runs before the body is read, so unparseable bodies (400) count like any other call.
    const hammer = (n: number) =>
      api("/api/v1/auth/send-verification-code", {
        method: "POST",
        body: "not json",
        headers: { "content-type": "application/json", "cf-connecting-ip": `2001:db8:aa:bb:${(n % 65535).toString(16)}::${(n + 1).toString(16)}` },
      });
    // One minute of the limiter's clock: a burst across a minute's turn would start afresh halfway.
    await withinOneMinute(async () => {
      const statuses: number[] = [];
      for (let batch = 0; batch < 22 && !statuses.includes(429); batch++) {
        statuses.push(...(await Promise.all(Array.from({ length: 50 }, (_, i) => hammer(batch * 50 + i)))).map((r) => r.status));
      }
      const firstRefusal = statuses.indexOf(429);
      expect(firstRefusal).toBeGreaterThanOrEqual(600);
      expect(statuses.slice(0, firstRefusal).every((s) => s === 400)).toBe(true);
      const refused = await post("/api/v1/auth/send-verification-code", { email: "x@spray.test" }, { "cf-connecting-ip": "2001:db8:aa:bb:ffff::ffff" });
      expect(refused.status).toBe(429);
      expect(await json(refused)).toMatchObject({ detail: expect.any(String), retry_after: expect.any(Number) });
      // Another /64 is another address.
      expect((await post("/api/v1/auth/send-verification-code", { email: "x@spray.test" }, { "cf-connecting-ip": "2001:db8:aa:cc::1" })).status).toBe(200);
    });
  }, 60_000);

  it("derives the throttling key of IPv4, IPv6 and mapped addresses", () => {
    expect(addressKey("192.0.2.7")).toBe("192.0.2.7");
    expect(addressKey("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:DB8:1:2::ffff")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::ffff:198.51.100.4")).toBe("198.51.100.4");
    expect(addressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });
});

describe("failed attempts per account", () => {
  // An injected clock (Date only; timers stay real): the throttle's windows are calendar minutes and
  // UTC days, so every test here starts at a known moment instead of waiting for one.
  const NOON = Date.parse("2026-03-02T12:00:00.000Z");
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOON);
  });
  afterEach(() => vi.useRealTimers());
  const at = (ms: number) => vi.setSystemTime(NOON + ms);

  it("an attacker's address uses up its tries; the owner on their own network still signs in", async () => {
    await signUp("locked@ufl.edu", "right-password");
    const attacker = { "cf-connecting-ip": "203.0.113.99" };
    const owner = { "cf-connecting-ip": "2001:db8:77:1::5" };
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await post("/api/v1/auth/login", { email: "locked@ufl.edu", password: `guess-${i}` }, attacker)).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    // Even the right password from the attacker's address waits out the minute, and is told about the code.
    const refused = await post("/api/v1/auth/login", { email: "locked@ufl.edu", password: "right-password" }, attacker);
    expect(refused.status).toBe(429);
    expect(await json(refused)).toMatchObject({ detail: expect.stringContaining("sign in with an emailed code"), retry_after: 60 });
    // The owner's phone (another /64) is unaffected.
    expect((await post("/api/v1/auth/login", { email: "locked@ufl.edu", password: "right-password" }, owner)).status).toBe(200);
    // A minute later the attacker's address may try again.
    at(60_000);
    expect((await post("/api/v1/auth/login", { email: "locked@ufl.edu", password: "guess-again" }, attacker)).status).toBe(401);
  }, 60_000);

  it("30 parallel guesses from 30 addresses: the account's daily free failures (20) are counted exactly, then it backs off", async () => {
    await signUp("target@ufl.edu", "right-password");
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => post("/api/v1/auth/login", { email: "target@ufl.edu", password: `guess-${i}` }, { "cf-connecting-ip": `198.18.1.${i + 1}` })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBe(20);
    expect(statuses.filter((s) => s === 429).length).toBe(10);
    const refused = await json<{ detail: string; retry_after: number }>(results[statuses.indexOf(429)]!);
    expect(refused).toEqual({ detail: "Too many failed sign-ins on this account today. Sign in with an emailed code, or try your password again in 2 seconds.", retry_after: 2 });
    // The right password waits too, from any address the owner never signed in from (the ceiling is the account's)...
    expect((await post("/api/v1/auth/login", { email: "target@ufl.edu", password: "right-password" })).status).toBe(429);
    // ...and the wait doubles with each failure after it.
    at(2_000);
    expect((await post("/api/v1/auth/login", { email: "target@ufl.edu", password: "guess-21" })).status).toBe(401);
    const next = await post("/api/v1/auth/login", { email: "target@ufl.edu", password: "guess-22" });
    expect(next.status).toBe(429);
    expect((await json<{ retry_after: number }>(next)).retry_after).toBe(4);
    at(6_000);
    expect((await post("/api/v1/auth/login", { email: "target@ufl.edu", password: "right-password" })).status).toBe(200);
  }, 90_000);

  it("a throttled owner signs in with an emailed code", async () => {
    const email = "coded-in@ufl.edu";
    await signUp(email, "right-password");
    await Promise.all(Array.from({ length: 21 }, (_, i) => post("/api/v1/auth/login", { email, password: `guess-${i}` })));
    expect((await post("/api/v1/auth/login", { email, password: "right-password" })).status).toBe(429);
    at(61_000); // past the sign-up code's resend cooldown
    expect((await post("/api/v1/auth/send-sign-in-code", { email })).status).toBe(200);
    const code = await latestCode(email);
    const res = await post("/api/v1/auth/login-with-code", { email, code });
    expect(res.status).toBe(200);
    const session = await json<Session>(res);
    expect(session.user.email).toBe(email);
    expect((await api("/api/v1/users/profile", authed(session.access_token))).status).toBe(200);
    // The code works once; an unknown email hears the same 200 to the send.
    expect((await post("/api/v1/auth/login-with-code", { email, code })).status).toBe(400);
    expect((await post("/api/v1/auth/send-sign-in-code", { email: "nobody-here@ufl.edu" })).status).toBe(200);
  }, 60_000);

  it("bounds guessing at about 123 passwords a day per account, however many addresses", async () => {
    // The counter itself, driven by the clock: a guesser who tries again the moment each wait ends.
    const db = createDb(env);
    let allowed = 0;
    let now = NOON - (NOON % 86_400_000);
    const end = now + 86_400_000;
    for (let guess = 0; now < end; guess++) {
      try {
        await countAttempt(db, "login", "ceiling@ufl.edu", `198.18.${guess >> 8}.${guess & 255}`, now);
        allowed++;
      } catch (err) {
        const { retry_after } = (await (err as { getResponse(): Response }).getResponse().json()) as { retry_after: number };
        now += retry_after * 1000;
      }
    }
    // 20 free, 9 after the doubling waits (2 s to 512 s), then one per 15 minutes for the rest of the day.
    expect(allowed).toBe(20 + 9 + Math.floor((86_400 - 1_022 - 1) / 900));
    expect(allowed).toBe(123);
    expect(backoffSeconds(19)).toBe(0);
    expect(backoffSeconds(20)).toBe(2);
    expect(backoffSeconds(28)).toBe(512);
    expect(backoffSeconds(29)).toBe(900);
  }, 90_000);

  it("an attack on the owner's email from 30 addresses leaves the owner's own network both ways in: password and emailed code", async () => {
    const email = "targeted@ufl.edu";
    const home = { "cf-connecting-ip": "198.18.250.7" };
    // The owner signed up and verified from home, which makes home a known address of the account.
    expect((await post("/api/v1/auth/register", { email, password: "right-password", first_name: "Tar", last_name: "Get" }, home)).status).toBe(201);
    expect((await post("/api/v1/auth/verify-email", { email, code: await latestCode(email) }, home)).status).toBe(200);
    at(61_000);
    const attackers = Array.from({ length: 30 }, (_, i) => ({ "cf-connecting-ip": `203.0.113.${i + 1}` }));
    // Codes: every address asks at once, then again for resets, until the email's day ceiling (30) answers.
    const signInCodes = await Promise.all(attackers.map((a) => post("/api/v1/auth/send-sign-in-code", { email }, a)));
    expect(signInCodes.filter((r) => r.status === 200)).toHaveLength(29); // the sign-up code was the first of 30
    const resets = await Promise.all(attackers.map((a) => post("/api/v1/auth/forgot-password", { email }, a)));
    expect(resets.every((r) => r.status === 429)).toBe(true);
    expect(await json(resets[0]!)).toMatchObject({ detail: "Too many codes were sent to this email today. Please try again tomorrow." });
    // Passwords: a wrong guess from each address at once runs the account's back-off for unknown addresses.
    const guesses = await Promise.all(attackers.map((a, i) => post("/api/v1/auth/login", { email, password: `guess-${i}` }, a)));
    expect(guesses.filter((r) => r.status === 401)).toHaveLength(20);
    expect(guesses.filter((r) => r.status === 429)).toHaveLength(10);
    // Guessers stay bounded: the right password from a 31st, unknown address waits too.
    expect((await post("/api/v1/auth/login", { email, password: "right-password" }, { "cf-connecting-ip": "203.0.113.31" })).status).toBe(429);

    // The owner at home: the password signs in...
    at(62_000);
    const byPassword = await post("/api/v1/auth/login", { email, password: "right-password" }, home);
    expect(byPassword.status).toBe(200);
    expect((await json<Session>(byPassword)).user.email).toBe(email);
    // ...and a new code is mailed and signs in.
    at(120_000);
    const send = await post("/api/v1/auth/send-sign-in-code", { email }, home);
    expect(send.status).toBe(200);
    const code = await latestCode(email);
    const byCode = await post("/api/v1/auth/login-with-code", { email, code }, home);
    expect(byCode.status).toBe(200);
    expect((await api("/api/v1/users/profile", authed((await json<Session>(byCode)).access_token))).status).toBe(200);
  }, 90_000);

  it("bounds guessing from a known address too: the back-off runs per account and address", async () => {
    // A guesser behind the owner's own NAT shares the known address, so its own day back-off bounds it.
    const owner = await signUp("shared-nat@ufl.edu", "right-password");
    const db = createDb(env);
    const nat = "198.18.252.1";
    await rememberAddress(db, owner.user.id, nat, NOON);
    let allowed = 0;
    let now = NOON - (NOON % 86_400_000);
    const end = now + 86_400_000;
    while (now < end) {
      try {
        await countAttempt(db, "login", "shared-nat@ufl.edu", nat, now);
        allowed++;
      } catch (err) {
        const { retry_after } = (await (err as { getResponse(): Response }).getResponse().json()) as { retry_after: number };
        now += retry_after * 1000;
      }
    }
    // The day's free 20 come ten a minute (the address's minute limit), then the same doubling waits.
    expect(allowed).toBeGreaterThan(110);
    expect(allowed).toBeLessThanOrEqual(123);
  }, 90_000);

  it("does not count successes: a student signing in again and again is never throttled", async () => {
    await signUp("often@ufl.edu", "right-password");
    for (let i = 0; i < 11; i++) {
      expect((await post("/api/v1/auth/login", { email: "often@ufl.edu", password: "right-password" })).status).toBe(200);
    }
  }, 60_000);

  it("20 parallel wrong guesses at a code from one address: five count, the code stays the owner's", async () => {
    await post("/api/v1/auth/register", { email: "guessed@ufl.edu", password: "secret-pass-1", first_name: "G", last_name: "U" });
    const code = await latestCode("guessed@ufl.edu");
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0");
    const guesser = { "cf-connecting-ip": "192.0.2.123" };
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => post("/api/v1/auth/verify-email", { email: "guessed@ufl.edu", code: wrong(i) }, guesser)));
    expect(results.every((r) => r.status === 400 || r.status === 429)).toBe(true);
    const row = await env.DB.prepare("SELECT attempts, consumed_at FROM email_codes WHERE email = ?").bind("guessed@ufl.edu").first<{ attempts: number; consumed_at: string | null }>();
    expect(row).toEqual({ attempts: 5, consumed_at: null });
    // With the address's minute over, the right code from that address still fails: its five tries are used.
    at(60_000);
    const late = await post("/api/v1/auth/verify-email", { email: "guessed@ufl.edu", code }, guesser);
    expect(late.status).toBe(400);
    expect(await json(late)).toEqual({ detail: "Invalid or expired verification code" });
    // The owner's own network: it works.
    expect((await post("/api/v1/auth/verify-email", { email: "guessed@ufl.edu", code }, { "cf-connecting-ip": "192.0.2.124" })).status).toBe(200);
  });

  it("mails at most 5 codes a day to one email at one network's request, sign-up and reset together", async () => {
    const email = "inbox@ufl.edu";
    const home = { "cf-connecting-ip": "192.0.2.40" };
    await post("/api/v1/auth/register", { email, password: "secret-pass-1", first_name: "I", last_name: "N" }, home);
    let sent = 1;
    let res: Response;
    for (;;) {
      at(61_000 * sent); // past the 60 s resend spacing, still within the day
      res = await post(sent % 2 ? "/api/v1/auth/forgot-password" : "/api/v1/auth/send-verification-code", { email }, home);
      if (res.status !== 200) break;
      sent++;
      if (sent > 10) break;
    }
    expect(sent).toBe(5);
    expect(res.status).toBe(429);
    const body = await json<{ detail: string; retry_after: number }>(res);
    expect(body.detail).toBe("Too many codes were requested for this email from your network today. Please try again tomorrow, or from another network.");
    expect(body.retry_after).toBeGreaterThan(23 * 3600);
    const count = await env.DB.prepare("SELECT count(*) AS n FROM email_codes WHERE email = ?").bind(email).first<{ n: number }>();
    expect(count!.n).toBe(5);
  });

  it("an attacker's code request after the owner's does not void the owner's code", async () => {
    const email = "keeps-code@ufl.edu";
    await signUp(email, "right-password");
    const ownerNet = { "cf-connecting-ip": "2001:db8:aa:1::7" };
    const attackerNet = { "cf-connecting-ip": "203.0.113.200" };
    expect((await post("/api/v1/auth/send-sign-in-code", { email }, ownerNet)).status).toBe(200);
    const ownersCode = await latestCode(email);
    // The attacker asks right after (a minute later too): each request mails a new code, none voids the owner's.
    expect((await post("/api/v1/auth/send-sign-in-code", { email }, attackerNet)).status).toBe(200);
    at(61_000);
    expect((await post("/api/v1/auth/send-sign-in-code", { email }, attackerNet)).status).toBe(200);
    const live = await env.DB.prepare("SELECT count(*) AS n FROM email_codes WHERE email = ? AND purpose = 'sign_in' AND consumed_at IS NULL").bind(email).first<{ n: number }>();
    expect(live!.n).toBe(3);
    const res = await post("/api/v1/auth/login-with-code", { email, code: ownersCode }, ownerNet);
    expect(res.status).toBe(200);
    // Only the code that matched is used up; the others live out their 15 minutes.
    const after = await env.DB.prepare("SELECT count(*) AS n FROM email_codes WHERE email = ? AND purpose = 'sign_in' AND consumed_at IS NULL").bind(email).first<{ n: number }>();
    expect(after!.n).toBe(2);
    expect((await post("/api/v1/auth/login-with-code", { email, code: ownersCode }, ownerNet)).status).toBe(400);
    // 15 minutes after it was mailed, a code is over.
    expect((await post("/api/v1/auth/send-sign-in-code", { email }, ownerNet)).status).toBe(200);
    const late = await latestCode(email);
    at(61_000 + 15 * 60_000 + 1);
    expect((await post("/api/v1/auth/login-with-code", { email, code: late }, ownerNet)).status).toBe(400);
  });

  it("an attacker who uses up their own day's codes for the owner's email leaves the owner's address able to get one", async () => {
    const email = "flooded@ufl.edu";
    await signUp(email, "right-password");
    const attackerNet = { "cf-connecting-ip": "203.0.113.201" };
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      at(61_000 * i);
      statuses.push((await post(i % 2 ? "/api/v1/auth/forgot-password" : "/api/v1/auth/send-sign-in-code", { email }, attackerNet)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const ownerNet = { "cf-connecting-ip": "198.18.200.1" };
    expect((await post("/api/v1/auth/send-sign-in-code", { email }, ownerNet)).status).toBe(200);
    expect((await post("/api/v1/auth/login-with-code", { email, code: await latestCode(email) }, ownerNet)).status).toBe(200);
  });

  it("mails at most 30 codes a day to one email however many networks ask at once (the inbox-flood ceiling)", async () => {
    const email = "ceiling-mail@ufl.edu";
    await signUp(email, "right-password"); // its sign-up code is the first of the day
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => post("/api/v1/auth/send-sign-in-code", { email }, { "cf-connecting-ip": `198.18.210.${i + 1}` })),
    );
    expect(results.filter((r) => r.status === 200).length).toBe(29);
    const refused = results.find((r) => r.status === 429)!;
    expect(await json(refused)).toMatchObject({ detail: "Too many codes were sent to this email today. Please try again tomorrow." });
    const count = await env.DB.prepare("SELECT count(*) AS n FROM email_codes WHERE email = ?").bind(email).first<{ n: number }>();
    expect(count!.n).toBe(30);
  });

  it("mails one code when many requests from one network arrive at once: the limits are checked in the insert", async () => {
    const email = "parallel@ufl.edu";
    await signUp(email);
    const home = { "cf-connecting-ip": "192.0.2.41" };
    await Promise.all(Array.from({ length: 12 }, () => post("/api/v1/auth/forgot-password", { email }, home)));
    const codes = await env.DB.prepare("SELECT count(*) AS n FROM email_codes WHERE email = ? AND purpose = 'reset_password'").bind(email).first<{ n: number }>();
    expect(codes!.n).toBe(1);
    const mailbox = await json<{ data: { subject: string }[] }>(await api(`/api/v1/dev/emails?to=${encodeURIComponent(email)}`));
    expect(mailbox.data.filter((m) => /reset/i.test(m.subject)).length).toBe(1);
  });

  it("wrong guesses from other addresses, all at once, use up the email's 200 comparisons a day but never stop the owner's code", async () => {
    const db = createDb(env);
    const email = "compared@ufl.edu";
    const owner = "198.18.220.1";
    const asker = "203.0.113.220"; // an attacker who requested a code too
    const issued = await issueCode(db, env.JWT_SECRET, email, "sign_in", owner);
    expect(await issueCode(db, env.JWT_SECRET, email, "sign_in", asker)).toHaveProperty("code");
    const code = "code" in issued ? issued.code : "";
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0");
    // Two live codes: each guess is compared with both, so 100 guesses reach the 200 comparisons.
    const guesses = await Promise.all(Array.from({ length: 120 }, (_, i) => consumeCode(db, env.JWT_SECRET, email, "sign_in", wrong(i), `198.18.${221 + (i >> 6)}.${i & 63}`)));
    expect(guesses.every((ok) => !ok)).toBe(true);
    const totals = () =>
      env.DB.prepare("SELECT sum(t.tries) AS tries, sum(t.compared) AS compared FROM email_code_tries t JOIN email_codes c ON c.id = t.code_id WHERE c.email = ?")
        .bind(email)
        .first<{ tries: number; compared: number }>();
    expect(await totals()).toEqual({ tries: 100, compared: 200 });
    // Past the ceiling an address that asked for no code is not compared at all, even with the right code.
    expect(await consumeCode(db, env.JWT_SECRET, email, "sign_in", code, "198.18.230.1")).toBe(false);
    // The attacker who asked for a code is compared with that code only (mailed to the owner, unknown to them).
    expect(await consumeCode(db, env.JWT_SECRET, email, "sign_in", code, asker)).toBe(false);
    expect(await totals()).toEqual({ tries: 101, compared: 201 });
    // The owner, from the address that asked, gets in.
    expect(await consumeCode(db, env.JWT_SECRET, email, "sign_in", code, owner)).toBe(true);
    expect(CODE_COMPARISONS_PER_DAY).toBe(200);
  });

  it("an address has five tries at the live codes of an email, however many codes it asks for", async () => {
    const db = createDb(env);
    const email = "five-tries@ufl.edu";
    const guesser = "203.0.113.230";
    let now = NOON;
    const first = await issueCode(db, env.JWT_SECRET, email, "reset_password", guesser, now);
    const code = "code" in first ? first.code : "";
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) expect(await consumeCode(db, env.JWT_SECRET, email, "reset_password", wrong, guesser, now)).toBe(false);
    now += 61_000;
    const second = await issueCode(db, env.JWT_SECRET, email, "reset_password", guesser, now);
    // A new code does not give the address new tries while its tried codes live: even the right one is refused.
    expect(await consumeCode(db, env.JWT_SECRET, email, "reset_password", "code" in second ? second.code : "", guesser, now)).toBe(false);
    // Once the tried code has expired, the address may try the newer one.
    now = NOON + 15 * 60_000 + 1;
    expect(await consumeCode(db, env.JWT_SECRET, email, "reset_password", "code" in second ? second.code : "", guesser, now)).toBe(true);
  });
});

describe("the staff password", () => {
  it("has its own limiter per address", async () => {
    await withinOneMinute(async () => {
      const ip = { "cf-connecting-ip": "192.0.2.200" };
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await post("/api/v1/admin/login", { password: `wrong-${i}` }, ip)).status);
      expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
      expect(statuses.at(-1)).toBe(429);
      // Sign-ins of students from that address are not affected.
      expect((await post("/api/v1/auth/send-verification-code", { email: "a@b.test" }, ip)).status).toBe(200);
    });
  });

  it("has a global limiter that a guesser spread over many addresses meets", async () => {
    await withinOneMinute(async () => {
      let sent = 0;
      let res: Response;
      do {
        res = await post("/api/v1/admin/login", { password: `wrong-${sent}` }, { "cf-connecting-ip": `198.18.${sent >> 8}.${sent & 255}` });
        sent++;
      } while (res.status === 401 && sent < 200);
      expect(res.status).toBe(429);
      expect(sent).toBeGreaterThan(10);
      expect(sent).toBeLessThanOrEqual(61); // one minute's window
      // It counts failures only: staff's right password is never kept out by the flood (docs/decisions/010)...
      expect((await api("/api/v1/admin/login", { method: "POST", body: JSON.stringify({ password: env.ADMIN_PASSWORD }), headers: { "cf-connecting-ip": "198.19.0.1" } })).status).toBe(200);
      // ...while another wrong one from a fresh address still meets it.
      expect((await api("/api/v1/admin/login", { method: "POST", body: JSON.stringify({ password: "wrong-again" }), headers: { "cf-connecting-ip": "198.19.0.2" } })).status).toBe(429);
      // A day ahead: the limiter's key is the same for everyone, and the next files' wrong passwords must not meet this full minute.
    }, { minutesAhead: 24 * 60 });
  });
});
