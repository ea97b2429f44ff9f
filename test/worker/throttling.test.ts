/**
 * Throttles sized for real people (docs/decisions/010): a campus behind one NAT address signs up
 * freely, while brute force against one account, one code or the staff password is refused.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addressKey } from "../../worker/middleware/rate-limit";
import { api, json, latestCode, post, signUp } from "./helpers";

const CAMPUS = { "cf-connecting-ip": "203.0.113.10" };

describe("a campus behind one address", () => {
  it("lets 100 students sign up, verify and sign in from one address within two minutes", async () => {
    const started = Date.now();
    const statuses: number[] = [];
    // Ten at a time, as students at the start of a term would arrive.
    for (let batch = 0; batch < 10; batch++) {
      await Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          const email = `student${batch * 10 + i}@campus.edu`;
          const reg = await post("/api/v1/auth/register", { email, password: "campus-pass-1", first_name: "Stu", last_name: "Dent" }, CAMPUS);
          const verify = await post("/api/v1/auth/verify-email", { email, code: await latestCode(email) }, CAMPUS);
          const login = await post("/api/v1/auth/login", { email, password: "campus-pass-1" }, CAMPUS);
          statuses.push(reg.status, verify.status, login.status);
        }),
      );
    }
    expect(statuses.length).toBe(300);
    expect(statuses.filter((s) => s !== 200 && s !== 201)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(120_000);
  }, 180_000);

  it("still has a ceiling per address, and keys IPv6 by its /64", async () => {
    // 1,000 a minute per address; one /64 rotating its interface ids is one address. The limiter
    // runs before the body is read, so unparseable bodies (400) count like any other call.
    const hammer = (n: number) =>
      api("/api/v1/auth/send-verification-code", {
        method: "POST",
        body: "not json",
        headers: { "content-type": "application/json", "cf-connecting-ip": `2001:db8:aa:bb:${(n % 65535).toString(16)}::${(n + 1).toString(16)}` },
      });
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
  it("refuses brute force on one account with 429 and retry_after, even spread over addresses", async () => {
    await signUp("target@ufl.edu", "right-password");
    // Windows are calendar minutes: start early in one, so the whole test (30 password checks on a
    // busy machine) stays inside it.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 30_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 50));
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => post("/api/v1/auth/login", { email: "target@ufl.edu", password: `guess-${i}` })),
    );
    const statuses = results.map((r) => r.status);
    // Counted atomically before the password is checked: at most 10 get a real answer.
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(20);
    const refused = await json<{ detail: string; retry_after: number }>(results[statuses.indexOf(429)]!);
    expect(refused.retry_after).toBeGreaterThan(0);
    expect(refused.retry_after).toBeLessThanOrEqual(60);
    // The right password is refused too until the minute ends.
    expect((await post("/api/v1/auth/login", { email: "target@ufl.edu", password: "right-password" })).status).toBe(429);
  }, 90_000);

  it("does not count successes: a student signing in again and again is never throttled", async () => {
    await signUp("often@ufl.edu", "right-password");
    for (let i = 0; i < 11; i++) {
      expect((await post("/api/v1/auth/login", { email: "often@ufl.edu", password: "right-password" })).status).toBe(200);
    }
  }, 60_000);

  it("voids a code after 20 parallel wrong guesses: each guess counts before the compare", async () => {
    await post("/api/v1/auth/register", { email: "guessed@ufl.edu", password: "secret-pass-1", first_name: "G", last_name: "U" });
    const code = await latestCode("guessed@ufl.edu");
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0");
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => post("/api/v1/auth/verify-email", { email: "guessed@ufl.edu", code: wrong(i) })));
    expect(results.every((r) => r.status === 400 || r.status === 429)).toBe(true);
    const row = await env.DB.prepare("SELECT attempts, consumed_at FROM email_codes WHERE email = ?").bind("guessed@ufl.edu").first<{ attempts: number; consumed_at: string | null }>();
    expect(row!.attempts).toBe(5);
    expect(row!.consumed_at).not.toBeNull();
    // With the account's minute forgotten, the right code still fails: it is void.
    await env.DB.prepare("DELETE FROM auth_throttle").run();
    const late = await post("/api/v1/auth/verify-email", { email: "guessed@ufl.edu", code });
    expect(late.status).toBe(400);
    expect(await json(late)).toEqual({ detail: "Invalid or expired verification code" });
  });

  it("mails at most 10 codes a day to one address, sign-up and reset together", async () => {
    const email = "inbox@ufl.edu";
    await post("/api/v1/auth/register", { email, password: "secret-pass-1", first_name: "I", last_name: "N" });
    const age = () => env.DB.prepare("UPDATE email_codes SET created_at = ? WHERE email = ?").bind(new Date(Date.now() - 61_000).toISOString(), email).run();
    let sent = 1;
    let res: Response;
    for (;;) {
      await age(); // past the 60 s resend cooldown, still within the day
      res = await post(sent % 2 ? "/api/v1/auth/forgot-password" : "/api/v1/auth/send-verification-code", { email });
      if (res.status !== 200) break;
      sent++;
      if (sent > 15) break;
    }
    expect(sent).toBe(10);
    expect(res.status).toBe(429);
    const body = await json<{ detail: string; retry_after: number }>(res);
    expect(body.detail).toBe("Too many codes were sent to this email today. Please try again tomorrow.");
    expect(body.retry_after).toBeGreaterThan(23 * 3600);
    const count = await env.DB.prepare("SELECT count(*) AS n FROM email_codes WHERE email = ?").bind(email).first<{ n: number }>();
    expect(count!.n).toBe(10);
  });

  it("mails one code when many requests for it arrive at once: the limits are checked in the insert", async () => {
    const email = "parallel@ufl.edu";
    await signUp(email);
    await env.DB.prepare("UPDATE email_codes SET created_at = ? WHERE email = ?").bind(new Date(Date.now() - 61_000).toISOString(), email).run();
    await Promise.all(Array.from({ length: 12 }, () => post("/api/v1/auth/forgot-password", { email })));
    const codes = await env.DB.prepare("SELECT count(*) AS n FROM email_codes WHERE email = ? AND purpose = 'reset_password'").bind(email).first<{ n: number }>();
    expect(codes!.n).toBe(1);
    const mailbox = await json<{ data: { subject: string }[] }>(await api(`/api/v1/dev/emails?to=${encodeURIComponent(email)}`));
    expect(mailbox.data.filter((m) => /reset/i.test(m.subject)).length).toBe(1);
  });
});

describe("the staff password", () => {
  it("has its own limiter per address", async () => {
    const ip = { "cf-connecting-ip": "192.0.2.200" };
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await post("/api/v1/admin/login", { password: `wrong-${i}` }, ip)).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Sign-ins of students from that address are not affected.
    expect((await post("/api/v1/auth/send-verification-code", { email: "a@b.test" }, ip)).status).toBe(200);
  });

  it("has a global limiter that a guesser spread over many addresses meets", async () => {
    let sent = 0;
    let res: Response;
    do {
      res = await post("/api/v1/admin/login", { password: `wrong-${sent}` }, { "cf-connecting-ip": `198.18.${sent >> 8}.${sent & 255}` });
      sent++;
    } while (res.status === 401 && sent < 200);
    expect(res.status).toBe(429);
    expect(sent).toBeGreaterThan(10);
    expect(sent).toBeLessThanOrEqual(61 + 60); // one window, or the next if it rolled over mid-test
    // The real password waits too: that is the price of one shared secret (docs/decisions/010).
    expect((await api("/api/v1/admin/login", { method: "POST", body: JSON.stringify({ password: env.ADMIN_PASSWORD }), headers: { "cf-connecting-ip": "198.19.0.1" } })).status).toBe(429);
  });
});
