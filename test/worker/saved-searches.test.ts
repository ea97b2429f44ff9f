/** Issue 15, item 3: saved searches (CRUD), matching on approval, alert emails, the unsubscribe link. */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { SAVED_SEARCH } from "../../worker/contract/saved-searches";
import { runHousekeeping } from "../../worker/services/housekeeping";
import { signAccessToken } from "../../worker/services/tokens";
import { api, authed, json, post, signUp, type Session } from "./helpers";
import { insertListing } from "./fixtures";

const HOUR = 3_600_000;

interface Saved {
  id: string;
  name: string;
  query: string;
  alert_frequency: string;
  paused: boolean;
}
interface Mail {
  subject: string;
  text: string;
  html: string;
}

let adminToken: string;
let lister: Session;

beforeAll(async () => {
  ({ token: adminToken } = await json<{ token: string }>(await post("/api/v1/admin/login", { password: env.ADMIN_PASSWORD })));
  lister = await signUp("ss-lister@ufl.edu");
});

const send = (token: string | null, method: string, path: string, body?: unknown) =>
  api(`/api/v1/saved-searches${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token && { Authorization: `Bearer ${token}` }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
const save = (s: Session, name: string, query: string, alert_frequency: "instant" | "daily" = "instant") =>
  send(s.access_token, "POST", "", { name, query, alert_frequency });
async function saved(s: Session, name: string, query: string, alert_frequency: "instant" | "daily" = "instant"): Promise<Saved> {
  const res = await save(s, name, query, alert_frequency);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await json<{ data: Saved }>(res)).data;
}
const list = async (s: Session) => (await json<{ data: Saved[] }>(await send(s.access_token, "GET", ""))).data;
const mails = async (to: string) => (await json<{ data: Mail[] }>(await api(`/api/v1/dev/emails?to=${encodeURIComponent(to)}`))).data;
const alerts = async (to: string) => (await mails(to)).filter((m) => / for "/.test(m.subject));

/** A listing of the lister's, waiting for review. */
const pending = (id: string, fields: Record<string, string | number | null> = {}) =>
  insertListing(lister.user.id, id, { verification_status: "pending", ...fields });
async function approve(id: string) {
  const res = await api(`/api/v1/admin/listings/${id}/verify`, authed(adminToken, { method: "PATCH", body: JSON.stringify({ status: "approved" }), headers: { "content-type": "application/json" } }));
  expect(res.status).toBe(200);
}
const hitsOf = async (searchId: string) =>
  (await env.DB.prepare("SELECT listing_id, emailed_at FROM saved_search_hits WHERE search_id = ? ORDER BY listing_id").bind(searchId).all<{ listing_id: string; emailed_at: string | null }>()).results;
const linkIn = (text: string, label: string) => /: (\S+)$/.exec(text.split("\n").find((l) => l.startsWith(`${label}: `)) ?? "")?.[1] ?? null;
const tokenIn = (mail: Mail) => new URL(linkIn(mail.text, "Unsubscribe from this search")!).searchParams.get("token")!;

describe("saving searches", () => {
  let me: Session;
  let other: Session;
  beforeAll(async () => {
    me = await signUp("ss-crud@ufl.edu");
    other = await signUp("ss-crud-other@ufl.edu");
  });

  it("stores the filters as a canonical browse query, lists newest first, renames, pauses, resumes and deletes", async () => {
    const first = await saved(me, "Gainesville fall", "?term=fall&page=2&university=1&sort=newest&utm_source=x&q=");
    expect(first).toMatchObject({ name: "Gainesville fall", query: "sort=newest&term=fall&university=1", alert_frequency: "instant", paused: false });
    const second = await saved(me, "Cheap", "max=700", "daily");
    expect((await list(me)).map((s) => s.id)).toEqual([second.id, first.id]);

    const renamed = await send(me.access_token, "PATCH", `/${first.id}`, { name: "  UF this fall ", alert_frequency: "daily" });
    expect(renamed.status).toBe(200);
    expect((await json<{ data: Saved }>(renamed)).data).toMatchObject({ name: "UF this fall", alert_frequency: "daily", paused: false });
    const paused = await json<{ data: Saved & { paused_at: string } }>(await send(me.access_token, "PATCH", `/${first.id}`, { paused: true }));
    expect(paused.data.paused).toBe(true);
    expect(Date.now() - Date.parse(paused.data.paused_at)).toBeLessThan(60_000);
    expect((await json<{ data: Saved }>(await send(me.access_token, "PATCH", `/${first.id}`, { paused: false }))).data.paused).toBe(false);

    expect((await send(me.access_token, "DELETE", `/${second.id}`)).status).toBe(204);
    expect((await list(me)).map((s) => s.id)).toEqual([first.id]);
    expect((await send(me.access_token, "DELETE", `/${second.id}`)).status).toBe(404);
  });

  it("answers 404 for someone else's search and 401 signed out", async () => {
    const mine = await saved(me, "Mine", "term=spring");
    expect(await list(other)).toEqual([]);
    for (const [method, body] of [["PATCH", { name: "Theirs now" }], ["DELETE", undefined]] as const) {
      const res = await send(other.access_token, method, `/${mine.id}`, body);
      expect(res.status).toBe(404);
      expect(await json(res)).toEqual({ detail: "Saved search not found" });
    }
    expect((await list(me)).find((s) => s.id === mine.id)?.name).toBe("Mine");
    expect((await send(null, "GET", "")).status).toBe(401);
    expect((await send(null, "POST", "", { name: "x", query: "term=fall" })).status).toBe(401);
  });

  it("refuses a bad name, no filter, a bad filter, a bad frequency and a duplicate, saying why", async () => {
    const cases: [unknown, string][] = [
      [{ name: "", query: "term=fall" }, "Name is required"],
      [{ name: "x".repeat(61), query: "term=fall" }, "Name must be at most 60 characters"],
      [{ name: "Two\nlines", query: "term=fall" }, "Name must be one line of text"],
      [{ name: "Sorted", query: "sort=price_asc" }, "Choose at least one filter"],
      [{ name: "Nothing", query: "page=3&foo=bar" }, "Choose at least one filter"],
      [{ name: "Winter", query: "term=winter" }, "lease_term"],
      [{ name: "Weekly", query: "term=fall", alert_frequency: "weekly" }, "alert_frequency must be instant or daily"],
    ];
    for (const [body, message] of cases) {
      const res = await send(me.access_token, "POST", "", body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(JSON.stringify(await json(res))).toContain(message);
    }
    await saved(me, "Pets", "pets=true&university=1");
    const dup = await save(me, "Again", "university=1&pets=true");
    expect(dup.status).toBe(409);
    expect((await json<{ detail: string }>(dup)).detail).toBe('You already saved this search as "Pets".');
    expect((await send(me.access_token, "PATCH", "/x", {})).status).toBe(422);
  });

  it(`caps a student at ${SAVED_SEARCH.maxPerUser} searches with a clear message`, async () => {
    const many = await signUp("ss-cap@ufl.edu");
    for (let i = 0; i < SAVED_SEARCH.maxPerUser; i++) await saved(many, `Search ${i}`, `min=${100 + i}`);
    const res = await save(many, "One more", "min=999");
    expect(res.status).toBe(409);
    expect((await json<{ detail: string }>(res)).detail).toBe("You can save up to 20 searches. Delete one in your profile to save another.");
    expect(await list(many)).toHaveLength(SAVED_SEARCH.maxPerUser);
  });
});

describe("matching a newly approved listing", () => {
  it("uses browse's own rules: university (none = any), term, rent, stay dates, words, parking, pets; never the owner's own searches", async () => {
    const searcher = await signUp("ss-matcher@ufl.edu");
    const queries: Record<string, boolean> = {
      "university=1&term=fall": true,
      "term=fall": true,
      "term=spring": false,
      "university=2&term=fall": false,
      "max=900": true,
      "max=700": false,
      "min=850": false,
      "from=2026-09-01&to=2026-12-01": true,
      "from=2026-08-01&to=2026-12-01": false,
      "q=stadium": true,
      "q=beachfront": false,
      "parking=true": true,
      "pets=true": false,
      "unitType=studio": false,
    };
    const ids: Record<string, string> = {};
    for (const q of Object.keys(queries)) ids[q] = (await saved(searcher, q, q)).id;
    const own = await saved(lister, "My own kind", "term=fall");

    await pending("m1", {
      title: "Quiet room by the stadium",
      lease_term: "fall",
      monthly_rent: 800,
      available_from: "2026-08-20",
      available_to: "2026-12-15",
      parking: 1,
    });
    await approve("m1");
    const matched: Record<string, boolean> = {};
    for (const [q, id] of Object.entries(ids)) matched[q] = (await hitsOf(id)).some((h) => h.listing_id === "m1");
    expect(matched).toEqual(queries);
    expect(await hitsOf(own.id)).toEqual([]);

    // Approved but hidden by staff: public to nobody, so it matches nothing (browse's visibility rule).
    await pending("m2", { title: "Hidden stadium room", lease_term: "fall", moderation_status: "hidden" });
    await approve("m2");
    const all = await env.DB.prepare("SELECT COUNT(*) AS n FROM saved_search_hits WHERE listing_id = 'm2'").first<{ n: number }>();
    expect(all!.n).toBe(0);
  });
});

describe("alert emails", () => {
  it("emails an instant search once; a second match within the day waits for the cron, which sends it a day later", async () => {
    const student = await signUp("ss-instant@ufl.edu");
    const search = await saved(student, "Harbor", "q=harbor&university=1");
    await pending("h1", { title: "Harbor view loft", monthly_rent: 1250 });
    await approve("h1");
    const first = await alerts(student.user.email);
    expect(first.map((m) => m.subject)).toEqual(['New listing for "Harbor"']);
    expect(first[0]!.text).toContain("Harbor view loft ($1,250/month): http://localhost/listing/h1");
    expect(linkIn(first[0]!.text, "Open your search")).toBe("http://localhost/?q=harbor&university=1");
    expect(linkIn(first[0]!.text, "Unsubscribe from this search")).toMatch(/^http:\/\/localhost\/unsubscribe\?token=/);
    expect(first[0]!.html).toContain('href="http://localhost/listing/h1"');

    await pending("h2", { title: "Harbor side room" });
    await pending("h3", { title: "Harbor studio" });
    await approve("h2");
    await approve("h3");
    expect(await alerts(student.user.email)).toHaveLength(1);
    expect((await hitsOf(search.id)).map((h) => [h.listing_id, h.emailed_at !== null])).toEqual([
      ["h1", true],
      ["h2", false],
      ["h3", false],
    ]);

    await runHousekeeping(env, Date.now() + 23 * HOUR);
    expect(await alerts(student.user.email)).toHaveLength(1);
    const run = await runHousekeeping(env, Date.now() + 24 * HOUR + 60_000);
    expect(run.savedSearchAlerts).toBeGreaterThanOrEqual(1);
    const after = await alerts(student.user.email);
    expect(after.map((m) => m.subject)).toEqual(['2 new listings for "Harbor"', 'New listing for "Harbor"']);
    expect(after[0]!.text).toContain("Harbor side room");
    expect(after[0]!.text).toContain("Harbor studio");
    expect(after[0]!.text).not.toContain("Harbor view loft");
    // Sent means sent: the next run has nothing for this search.
    await runHousekeeping(env, Date.now() + 50 * HOUR);
    expect(await alerts(student.user.email)).toHaveLength(2);

    // Back to review and approved again: the same listing never alerts twice.
    await env.DB.prepare("UPDATE listings SET verification_status = 'pending' WHERE id = 'h1'").run();
    await approve("h1");
    await runHousekeeping(env, Date.now() + 80 * HOUR);
    expect(await alerts(student.user.email)).toHaveLength(2);
    expect((await hitsOf(search.id)).filter((h) => h.listing_id === "h1")).toHaveLength(1);
  });

  it("sends a daily search's digest when its oldest match is a day old, one email for all of them", async () => {
    const student = await signUp("ss-daily@ufl.edu");
    await saved(student, "Meadow", "q=meadow", "daily");
    await pending("d1", { title: "Meadow cottage" });
    await pending("d2", { title: "Meadow flat" });
    await approve("d1");
    await approve("d2");
    expect(await alerts(student.user.email)).toEqual([]);
    await runHousekeeping(env, Date.now() + 23 * HOUR);
    expect(await alerts(student.user.email)).toEqual([]);
    await runHousekeeping(env, Date.now() + 24 * HOUR + 60_000);
    const digest = await alerts(student.user.email);
    expect(digest.map((m) => m.subject)).toEqual(['2 new listings for "Meadow"']);
  });

  it("the verify-all path alerts too", async () => {
    const student = await signUp("ss-all@ufl.edu");
    await saved(student, "Lantern", "q=lantern");
    await pending("v1", { title: "Lantern house" });
    const res = await api("/api/v1/admin/listings/verify-all", authed(adminToken, { method: "POST" }));
    expect(res.status).toBe(200);
    expect((await alerts(student.user.email)).map((m) => m.subject)).toEqual(['New listing for "Lantern"']);
  });

  it("sends nothing for a paused search, with notifications off, or for a listing no longer public", async () => {
    const paused = await signUp("ss-paused@ufl.edu");
    const orchard = await saved(paused, "Orchard", "q=orchard");
    await send(paused.access_token, "PATCH", `/${orchard.id}`, { paused: true });
    const quiet = await signUp("ss-quiet@ufl.edu");
    await saved(quiet, "Willow", "q=willow");
    const off = await api("/api/v1/users/notifications", authed(quiet.access_token, { method: "PATCH", body: JSON.stringify({ email_on_saved_search: false }), headers: { "content-type": "application/json" } }));
    expect((await json<{ data: { email_on_saved_search: boolean } }>(off)).data.email_on_saved_search).toBe(false);
    const late = await signUp("ss-late@ufl.edu");
    const cedar = await saved(late, "Cedar", "q=cedar", "daily");

    await pending("p1", { title: "Orchard room" });
    await pending("p2", { title: "Willow room" });
    await pending("p3", { title: "Cedar room" });
    for (const id of ["p1", "p2", "p3"]) await approve(id);
    expect(await hitsOf(orchard.id)).toEqual([]);
    expect((await hitsOf(cedar.id)).map((h) => h.listing_id)).toEqual(["p3"]);
    // Taken before the digest: nothing to announce, and the hit is dropped.
    await env.DB.prepare("UPDATE listings SET status = 'taken' WHERE id = 'p3'").run();
    await runHousekeeping(env, Date.now() + 25 * HOUR);
    for (const s of [paused, quiet, late]) expect(await alerts(s.user.email)).toEqual([]);
    expect(await hitsOf(cedar.id)).toEqual([]);

    // Resumed, the paused search alerts for the next match.
    await send(paused.access_token, "PATCH", `/${orchard.id}`, { paused: false });
    await pending("p4", { title: "Orchard loft" });
    await approve("p4");
    expect((await alerts(paused.user.email)).map((m) => m.subject)).toEqual(['New listing for "Orchard"']);
  });
});

describe("the unsubscribe link", () => {
  it("pauses the search without signing in, Undo resumes it, and a tampered or foreign token is refused", async () => {
    const student = await signUp("ss-unsub@ufl.edu");
    const search = await saved(student, "Granite", "q=granite");
    await pending("u1", { title: "Granite suite" });
    await approve("u1");
    const [mail] = await alerts(student.user.email);
    const token = tokenIn(mail!);

    const res = await post("/api/v1/saved-searches/unsubscribe", { token });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ name: "Granite", paused: true });
    expect((await list(student)).find((s) => s.id === search.id)?.paused).toBe(true);
    // Paused: a new match is not even recorded.
    await pending("u2", { title: "Granite loft" });
    await approve("u2");
    expect((await hitsOf(search.id)).map((h) => h.listing_id)).toEqual(["u1"]);

    const undo = await post("/api/v1/saved-searches/resubscribe", { token });
    expect(await json(undo)).toEqual({ name: "Granite", paused: false });
    expect((await list(student)).find((s) => s.id === search.id)?.paused).toBe(false);

    const [head, payload, signature] = token.split(".");
    const flipped = signature!.startsWith("A") ? `B${signature!.slice(1)}` : `A${signature!.slice(1)}`;
    const forged = await signAccessToken(env.JWT_SECRET, search.id);
    for (const bad of [`${head}.${payload}.${flipped}`, forged, "not-a-token"]) {
      const r = await post("/api/v1/saved-searches/unsubscribe", { token: bad });
      expect(r.status).toBe(400);
      expect((await json<{ detail: string }>(r)).detail).toBe("This unsubscribe link is not valid. Sign in and pause the alerts from your profile.");
    }
    expect((await post("/api/v1/saved-searches/unsubscribe", {})).status).toBe(422);

    // A deleted search: its link says so.
    expect((await send(student.access_token, "DELETE", `/${search.id}`)).status).toBe(204);
    const gone = await post("/api/v1/saved-searches/unsubscribe", { token });
    expect(gone.status).toBe(404);
    expect((await json<{ detail: string }>(gone)).detail).toBe("This saved search no longer exists, so it sends no alerts.");
  });
});
