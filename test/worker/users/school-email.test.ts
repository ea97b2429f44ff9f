import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SCHOOL_EMAIL_VALID_DAYS } from "../../../worker/contract/users";
import { schoolDomainOf, universityIdOfDomain } from "../../../worker/services/school-email";
import { api, authed, json, latestCode, signUp } from "../helpers";

const IP = { "cf-connecting-ip": "203.0.113.77" };
const send = (token: string, body: unknown, ip = IP) =>
  api("/api/v1/users/school-email", authed(token, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json", ...ip } }));
const confirm = (token: string, code: string, ip = IP) =>
  api("/api/v1/users/school-email/verify", authed(token, { method: "POST", body: JSON.stringify({ code }), headers: { "content-type": "application/json", ...ip } }));
const profile = async (token: string) => (await json<{ data: Record<string, unknown> }>(await api("/api/v1/users/profile", authed(token)))).data;
const publicUser = async (id: string) => (await json<{ data: Record<string, unknown> }>(await api(`/api/v1/users/${id}`))).data;

describe("school email domains", () => {
  it("counts a listed university domain and its subdomains, nothing else", () => {
    expect(schoolDomainOf("maya@ufl.edu")).toBe("ufl.edu");
    expect(schoolDomainOf("maya@cise.UFL.edu")).toBe("ufl.edu");
    expect(schoolDomainOf("maya@stanford.edu")).toBe("stanford.edu");
    expect(schoolDomainOf("maya@gmail.com")).toBeNull();
    expect(schoolDomainOf("maya@edu")).toBeNull();
    expect(schoolDomainOf("maya@notufl.edu")).toBeNull();
    expect(schoolDomainOf("maya@ufl.edu.evil.example")).toBeNull();
  });

  it("lists only accredited degree-granting institutions that are open (docs/decisions/032)", () => {
    // A county government, a school district, a high school, companies, schools closed in 2016 (ITT Tech, Dowling College).
    for (const email of ["nurse@lacounty.org", "kid@ojaiusd.org", "a@bmhs.org", "b@upmc.com", "c@quadratacademy.com", "d@itt-tech.edu", "e@itt-tech.info", "f@dowling.edu"]) {
      expect(schoolDomainOf(email), email).toBeNull();
    }
    // Schools whose email domain is not their web domain stay (matched by name), and so do the service academies and colleges outside federal aid.
    for (const email of ["cadet@usma.edu", "m@hillsdale.edu", "s@jh.edu", "x@utexas.edu", "y@fsu.edu"]) expect(schoolDomainOf(email), email).not.toBeNull();
  });

  it("matches listed domains to our universities by name where it can", () => {
    expect(universityIdOfDomain("ufl.edu")).toBe(49);
    expect(universityIdOfDomain("stanford.edu")).toBe(20);
  });
});

describe("school email badge", () => {
  it("mails a code to the school address; the code confirms it; profile and public view show the domain, never the address", async () => {
    const s = await signUp("badge-owner@example.com");
    expect((await profile(s.access_token)).school_email_domain).toBeNull();
    const res = await send(s.access_token, { email: "Badge.Owner@UFL.edu" });
    expect(res.status).toBe(200);
    const code = await latestCode("badge.owner@ufl.edu");
    const ok = await confirm(s.access_token, code);
    expect(ok.status).toBe(200);
    const { data } = await json<{ data: { domain: string; verified_at: string } }>(ok);
    expect(data.domain).toBe("ufl.edu");
    expect(Math.abs(Date.parse(data.verified_at) - Date.now())).toBeLessThan(60_000);
    const mine = await profile(s.access_token);
    expect(mine).toMatchObject({ school_email_domain: "ufl.edu", school_email: "badge.owner@ufl.edu" });
    const seen = await publicUser(s.user.id);
    expect(seen.school_email_domain).toBe("ufl.edu");
    expect(JSON.stringify(seen)).not.toContain("badge.owner");
    // A code is spent once.
    expect((await confirm(s.access_token, code)).status).toBe(400);
  });

  it("refuses a domain that is not a university's (422) and a bad address (422), mailing nothing", async () => {
    const s = await signUp("badge-gmail@example.com");
    for (const email of ["someone@gmail.com", "not-an-address"]) {
      const res = await send(s.access_token, { email });
      expect(res.status, email).toBe(422);
      expect((await json<{ detail: string }>(res)).detail, email).toBeTruthy();
    }
    await expect(latestCode("someone@gmail.com")).rejects.toThrow();
  });

  it("refuses a wrong code (400) and a confirm without a request (400); the badge stays off", async () => {
    const s = await signUp("badge-wrong@example.com");
    expect((await confirm(s.access_token, "123456")).status).toBe(400);
    await send(s.access_token, { email: "wrong-code@ufl.edu" });
    const code = await latestCode("wrong-code@ufl.edu");
    const res = await confirm(s.access_token, code === "000000" ? "000001" : "000000");
    expect(res.status).toBe(400);
    expect((await json<{ detail: string }>(res)).detail).toMatch(/code/i);
    expect((await profile(s.access_token)).school_email_domain).toBeNull();
  });

  it("one account per address: another account is refused (409) at request and at confirm", async () => {
    const a = await signUp("badge-a@example.com");
    const b = await signUp("badge-b@example.com");
    // Both ask before either confirms; the first to confirm holds it.
    await send(a.access_token, { email: "shared@ufl.edu" });
    const codeForA = await latestCode("shared@ufl.edu");
    const bAsks = await send(b.access_token, { email: "shared@ufl.edu" }, { "cf-connecting-ip": "203.0.113.78" });
    expect(bAsks.status).toBe(200);
    const codeForB = await latestCode("shared@ufl.edu");
    expect((await confirm(a.access_token, codeForA)).status).toBe(200);
    const late = await confirm(b.access_token, codeForB, { "cf-connecting-ip": "203.0.113.78" });
    expect(late.status).toBe(409);
    expect((await json<{ detail: string }>(late)).detail).toMatch(/another account/);
    const again = await send(b.access_token, { email: "shared@ufl.edu" }, { "cf-connecting-ip": "203.0.113.79" });
    expect(again.status).toBe(409);
    expect((await profile(b.access_token)).school_email_domain).toBeNull();
  });

  it("one school address per account: confirming a new one replaces the old", async () => {
    const s = await signUp("badge-two@example.com");
    await send(s.access_token, { email: "first@ufl.edu" });
    expect((await confirm(s.access_token, await latestCode("first@ufl.edu"))).status).toBe(200);
    await send(s.access_token, { email: "second@stanford.edu" });
    expect((await confirm(s.access_token, await latestCode("second@stanford.edu"))).status).toBe(200);
    expect(await profile(s.access_token)).toMatchObject({ school_email: "second@stanford.edu", school_email_domain: "stanford.edu" });
    // The first address is free again for its owner's other account.
    const other = await signUp("badge-two-other@example.com");
    expect((await send(other.access_token, { email: "first@ufl.edu" }, { "cf-connecting-ip": "203.0.113.80" })).status).toBe(200);
  });

  it("one inbox, one badge: +tags and case make no second address (409 at request and at confirm)", async () => {
    const a = await signUp("badge-plus-a@example.com");
    const b = await signUp("badge-plus-b@example.com");
    await send(a.access_token, { email: "ana+1@ufl.edu" });
    await send(b.access_token, { email: "Ana+2@UFL.edu" }, { "cf-connecting-ip": "203.0.113.81" });
    const codeForB = await latestCode("ana+2@ufl.edu");
    expect((await confirm(a.access_token, await latestCode("ana+1@ufl.edu"))).status).toBe(200);
    const late = await confirm(b.access_token, codeForB, { "cf-connecting-ip": "203.0.113.81" });
    expect(late.status).toBe(409);
    expect((await profile(b.access_token)).school_email_domain).toBeNull();
    for (const email of ["ana@ufl.edu", "ANA+3@ufl.edu", "ana+1@UFL.EDU"]) {
      expect((await send(b.access_token, { email }, { "cf-connecting-ip": "203.0.113.82" })).status, email).toBe(409);
    }
    // Another inbox at the same school is another address.
    expect((await send(b.access_token, { email: "anabel@ufl.edu" }, { "cf-connecting-ip": "203.0.113.83" })).status).toBe(200);
  });

  it("a sign-up address at a school counts from its sign-up code, with no second code; a second account on the same inbox gets no badge", async () => {
    const s = await signUp("Maya.Chen@ufl.edu");
    expect(s.user).toMatchObject({ school_email_domain: "ufl.edu", school_email: "maya.chen@ufl.edu" });
    expect((await publicUser(s.user.id)).school_email_domain).toBe("ufl.edu");
    const mail = await json<{ data: { subject: string }[] }>(await api(`/api/v1/dev/emails?to=${encodeURIComponent("maya.chen@ufl.edu")}`));
    expect(mail.data).toHaveLength(1);
    // The earliest verified keeps the badge: a second account on her inbox under a +tag has none, and cannot ask for it.
    const second = await signUp("maya.chen+housing@ufl.edu");
    expect(second.user.school_email_domain).toBeNull();
    expect((await send(second.access_token, { email: "maya.chen+housing@ufl.edu" }, { "cf-connecting-ip": "203.0.113.84" })).status).toBe(409);
    // A sign-up elsewhere gets nothing.
    expect((await signUp("maya.elsewhere@example.com")).user.school_email_domain).toBeNull();
  });

  it("accounts that already shared an inbox: the earliest verified keeps it (migration 0040)", async () => {
    const [first, later] = await Promise.all([signUp("old-plus-first@example.com"), signUp("old-plus-later@example.com")]);
    const set = env.DB.prepare("UPDATE users SET school_email = ?, school_email_canonical = NULL, school_email_domain = 'ufl.edu', school_email_verified_at = ? WHERE id = ?");
    await env.DB.batch([set.bind("lee+a@ufl.edu", "2026-01-02T00:00:00.000Z", later.user.id), set.bind("Lee+b@ufl.edu", "2026-01-01T00:00:00.000Z", first.user.id)]);
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0040_"))!;
    for (const query of migration.queries) await env.DB.prepare(query).run();
    const rows = await env.DB.prepare("SELECT id, school_email, school_email_canonical, school_email_domain FROM users WHERE id IN (?, ?)").bind(first.user.id, later.user.id).all();
    expect(Object.fromEntries(rows.results.map((r) => [r.id, [r.school_email, r.school_email_canonical, r.school_email_domain]]))).toEqual({
      [first.user.id]: ["Lee+b@ufl.edu", "lee@ufl.edu", "ufl.edu"],
      [later.user.id]: [null, null, null],
    });
  });

  it("the usual code throttle: a second code within 60 s is refused with 429", async () => {
    const s = await signUp("badge-throttle@example.com");
    expect((await send(s.access_token, { email: "throttle@ufl.edu" })).status).toBe(200);
    const res = await send(s.access_token, { email: "throttle@ufl.edu" });
    expect(res.status).toBe(429);
    expect((await json<{ detail: string }>(res)).detail).toMatch(/wait/i);
  });

  it("the badge lapses a year after its code until reconfirmed", async () => {
    const s = await signUp("badge-old@example.com");
    await send(s.access_token, { email: "alum@ufl.edu" });
    expect((await confirm(s.access_token, await latestCode("alum@ufl.edu"))).status).toBe(200);
    const old = new Date(Date.now() - (SCHOOL_EMAIL_VALID_DAYS + 1) * 86_400_000).toISOString();
    await env.DB.prepare("UPDATE users SET school_email_verified_at = ? WHERE id = ?").bind(old, s.user.id).run();
    expect((await profile(s.access_token)).school_email_domain).toBeNull();
    expect((await profile(s.access_token)).school_email).toBe("alum@ufl.edu");
    expect((await publicUser(s.user.id)).school_email_domain).toBeNull();
    const fresh = new Date(Date.now() - (SCHOOL_EMAIL_VALID_DAYS - 1) * 86_400_000).toISOString();
    await env.DB.prepare("UPDATE users SET school_email_verified_at = ? WHERE id = ?").bind(fresh, s.user.id).run();
    expect((await publicUser(s.user.id)).school_email_domain).toBe("ufl.edu");
  });

  it("a visitor is refused with 401", async () => {
    const res = await api("/api/v1/users/school-email", { method: "POST", body: JSON.stringify({ email: "x@ufl.edu" }), headers: { "content-type": "application/json" } });
    expect(res.status).toBe(401);
    expect((await api("/api/v1/users/school-email/verify", { method: "POST", body: JSON.stringify({ code: "123456" }) })).status).toBe(401);
  });
});
