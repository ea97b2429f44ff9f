/** Saved searches (docs/decisions/020): CRUD, matching on approval, alert emails, the unsubscribe link. */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { SAVED_SEARCH } from "../../../worker/contract/saved-searches";
import entry from "../../../worker/index";
import { runHousekeeping } from "../../../worker/services/housekeeping";
import { signAccessToken } from "../../../worker/services/tokens";
import { adminLogin, api, authed, deliveries, drainQueues, insertListing, json, post, type Session, signUp } from "../helpers";

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
  adminToken = await adminLogin();
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
/**
 * env.DB watched: every statement prepared through it (a request's D1 session included), with how many
 * values it bound; `fail` makes chosen statements throw when run (a mail provider that is down).
 */
function watchedDb(fail?: (sql: string, values: unknown[]) => boolean) {
  const statements: { sql: string; binds: number }[] = [];
  const watch = (prepare: (query: string) => D1PreparedStatement) => (query: string) => {
    const stmt = prepare(query);
    const seen = { sql: query, binds: 0 };
    statements.push(seen);
    const bind = stmt.bind.bind(stmt);
    stmt.bind = (...values: unknown[]) => {
      seen.binds = values.length;
      if (fail?.(query, values)) {
        const refuse = () => Promise.reject(new Error("mail provider down"));
        return { run: refuse, all: refuse, raw: refuse, first: refuse } as unknown as D1PreparedStatement;
      }
      return bind(...values);
    };
    return stmt;
  };
  const real = env.DB;
  const db = {
    prepare: watch((q) => real.prepare(q)),
    batch: (list: D1PreparedStatement[]) => real.batch(list),
    exec: (q: string) => real.exec(q),
    dump: () => real.dump(),
    withSession: (constraint?: string) => {
      const session = real.withSession(constraint);
      return { prepare: watch((q) => session.prepare(q)), batch: (list: D1PreparedStatement[]) => session.batch(list), getBookmark: () => session.getBookmark() };
    },
  } as unknown as D1Database;
  /** The statements of this feature (its tables, or an id list passed as JSON). */
  const ours = () => statements.filter((st) => /saved_search|json_each/i.test(st.sql));
  return { db, statements, ours };
}
/** A request to the worker with env.DB replaced (watchedDb), then the queues' consumer on what it queued. */
async function apiOn(db: D1Database, path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const res = await entry.fetch(new Request(`http://localhost${path}`, init) as Request<unknown, IncomingRequestCfProperties>, { ...env, DB: db }, ctx);
  await waitOnExecutionContext(ctx);
  // The alerts the request queued are matched and sent by the queue's consumer, on the same database.
  await drainQueues({ env: { ...env, DB: db } });
  return res;
}
const verifyInit = () => authed(adminToken, { method: "PATCH", body: JSON.stringify({ status: "approved" }), headers: { "content-type": "application/json" } });

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
  it("say where a listing is by its street and area, never the house number or unit (decision 024)", async () => {
    const student = await signUp("ss-where@ufl.edu");
    await saved(student, "Village", "q=bleecker");
    await pending("w1", { title: "Village room", address: "177 Bleecker St, Apt 4B, New York, NY 10003" });
    await approve("w1");
    const [mail] = await alerts(student.user.email);
    expect(mail!.text).toContain("Village room ($800/month · Bleecker St, New York, NY 10003): http://localhost/listing/w1");
    expect(mail!.html).toContain("Bleecker St, New York, NY 10003");
    for (const body of [mail!.text, mail!.html]) expect(body).not.toMatch(/177|Apt 4B/);
  });

  it("a search for a house number matches nothing, so it is never alerted", async () => {
    const student = await signUp("ss-number@ufl.edu");
    const search = await saved(student, "Number", "q=2190");
    await pending("w2", { title: "Numbered room", address: "2190 Elm St, Gainesville, FL 32601" });
    await approve("w2");
    expect(await hitsOf(search.id)).toEqual([]);
    expect(await alerts(student.user.email)).toEqual([]);
  });

  it("emails an instant search once; a second match within the day waits for the cron, which sends it a day later", async () => {
    const student = await signUp("ss-instant@ufl.edu");
    const search = await saved(student, "Harbor", "q=harbor&university=1");
    await pending("h1", { title: "Harbor view loft", monthly_rent: 1250 });
    await approve("h1");
    const first = await alerts(student.user.email);
    expect(first.map((m) => m.subject)).toEqual(['New listing for "Harbor"']);
    expect(first[0]!.text).toContain("Harbor view loft ($1,250/month · Main St): http://localhost/listing/h1");
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
    await drainQueues();
    expect(await alerts(student.user.email)).toHaveLength(1);
    const run = await runHousekeeping(env, Date.now() + 24 * HOUR + 60_000);
    await drainQueues();
    expect(run.savedSearchAlerts).toBeGreaterThanOrEqual(1);
    const after = await alerts(student.user.email);
    expect(after.map((m) => m.subject)).toEqual(['2 new listings for "Harbor"', 'New listing for "Harbor"']);
    expect(after[0]!.text).toContain("Harbor side room");
    expect(after[0]!.text).toContain("Harbor studio");
    expect(after[0]!.text).not.toContain("Harbor view loft");
    // Sent means sent: the next run has nothing for this search.
    await runHousekeeping(env, Date.now() + 50 * HOUR);
    await drainQueues();
    expect(await alerts(student.user.email)).toHaveLength(2);

    // Back to review and approved again: the same listing never alerts twice.
    await env.DB.prepare("UPDATE listings SET verification_status = 'pending' WHERE id = 'h1'").run();
    await approve("h1");
    await runHousekeeping(env, Date.now() + 80 * HOUR);
    await drainQueues();
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
    await drainQueues();
    expect(await alerts(student.user.email)).toEqual([]);
    await runHousekeeping(env, Date.now() + 24 * HOUR + 60_000);
    await drainQueues();
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
    await drainQueues();
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

    // The page first reads what the link is about: that changes nothing.
    const about = await post("/api/v1/saved-searches/link", { token });
    expect(await json(about)).toEqual({ name: "Granite", paused: false });
    expect((await list(student)).find((s) => s.id === search.id)?.paused).toBe(false);

    const res = await post("/api/v1/saved-searches/unsubscribe", { token });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ name: "Granite", paused: true });
    expect(await json(await post("/api/v1/saved-searches/link", { token }))).toEqual({ name: "Granite", paused: true });
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
      for (const action of ["link", "unsubscribe"]) {
        const r = await post(`/api/v1/saved-searches/${action}`, { token: bad });
        expect(r.status).toBe(400);
        expect((await json<{ detail: string }>(r)).detail).toBe("This unsubscribe link is not valid. Sign in and pause the alerts from your profile.");
      }
    }
    expect((await post("/api/v1/saved-searches/unsubscribe", {})).status).toBe(422);

    // A deleted search: its link says so.
    expect((await send(student.access_token, "DELETE", `/${search.id}`)).status).toBe(204);
    expect((await post("/api/v1/saved-searches/link", { token })).status).toBe(404);
    const gone = await post("/api/v1/saved-searches/unsubscribe", { token });
    expect(gone.status).toBe(404);
    expect((await json<{ detail: string }>(gone)).detail).toBe("This saved search no longer exists, so it sends no alerts.");
  });
});

describe("saving the same search twice at once", () => {
  it("one save wins (201), the other answers 409 naming it, and one row is stored", async () => {
    const student = await signUp("ss-race@ufl.edu");
    const answers = await Promise.all([save(student, "Race A", "q=racing&university=1"), save(student, "Race B", "university=1&q=racing")]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    const winner = (await json<{ data: Saved }>(answers.find((r) => r.status === 201)!)).data;
    expect((await json<{ detail: string }>(answers.find((r) => r.status === 409)!)).detail).toBe(`You already saved this search as "${winner.name}".`);
    const rows = await env.DB.prepare("SELECT id FROM saved_searches WHERE user_id = ?").bind(student.user.id).all();
    expect(rows.results).toHaveLength(1);
  });
});

describe("approving many listings at once", () => {
  it("verify-all runs one statement per search (not per listing and search) and records the right hits", async () => {
    const a = await signUp("ss-many-a@ufl.edu");
    const b = await signUp("ss-many-b@ufl.edu");
    // 30 pending listings: rent 600 + 10k, fall when k is even (else spring), all at university 1.
    const listings = Array.from({ length: 30 }, (_, k) => ({ id: `z${k}`, rent: 600 + 10 * k, term: k % 2 ? "spring" : "fall" }));
    for (const l of listings) await pending(l.id, { title: `Zephyr room ${l.id}`, monthly_rent: l.rent, lease_term: l.term });
    // 40 searches: a's (instant, any university, some at another university) and b's (daily, university 1).
    const searches: { query: string; match: (l: (typeof listings)[number]) => boolean; id?: string }[] = [];
    for (let i = 0; i < 20; i++) {
      searches.push(
        i % 5 === 4
          ? { query: `q=zephyr&university=2&max=${700 + i}`, match: () => false }
          : { query: `q=zephyr&max=${600 + 10 * i}`, match: (l) => l.rent <= 600 + 10 * i },
      );
    }
    for (let i = 0; i < 20; i++) {
      const term = i % 2 ? "spring" : "fall";
      searches.push({ query: `q=zephyr&university=1&term=${term}&min=${600 + 10 * i}`, match: (l) => l.term === term && l.rent >= 600 + 10 * i });
    }
    for (const [i, s] of searches.entries()) s.id = (await saved(i < 20 ? a : b, `Zephyr ${i}`, s.query, i < 20 ? "instant" : "daily")).id;
    const own = await saved(lister, "My zephyrs", "q=zephyr");
    const total = (await env.DB.prepare("SELECT COUNT(*) AS n FROM saved_searches").first<{ n: number }>())!.n;

    const watched = watchedDb();
    const res = await apiOn(watched.db, "/api/v1/admin/listings/verify-all", authed(adminToken, { method: "POST" }));
    expect(res.status).toBe(200);
    expect((await json<{ verified_count: number }>(res)).verified_count).toBeGreaterThanOrEqual(30);

    const ours = watched.ours();
    // One candidate query for all the listings; one match statement per candidate search.
    expect(ours.filter((st) => st.sql.includes("u.email_on_saved_search = 1"))).toHaveLength(1);
    const matching = ours.filter((st) => st.sql.startsWith("SELECT l.id FROM json_each(?) j CROSS JOIN listings l"));
    expect(matching.length).toBeGreaterThanOrEqual(40);
    expect(matching.length).toBeLessThanOrEqual(total);
    // Per search at most its match, its hits and its email (due, dropped hits, waiting hits, claim,
    // mark): O(searches). Matched per listing it was over 30 x 40.
    expect(ours.length).toBeLessThanOrEqual(7 * total + 5);

    for (const s of searches) {
      const want = listings.filter(s.match).map((l) => l.id);
      expect((await hitsOf(s.id!)).map((h) => h.listing_id).sort(), s.query).toEqual(want.sort());
    }
    expect(await hitsOf(own.id)).toEqual([]);
    // a's instant searches with a match were emailed in the same request; b's daily ones wait.
    const emailed = searches.slice(0, 20).filter((s) => listings.some(s.match)).length;
    expect(await alerts(a.user.email)).toHaveLength(emailed);
    expect(await alerts(b.user.email)).toEqual([]);
  });

  it("150 searches matched by one approval: no statement binds more than D1's 100 values; 100 emails now, the rest from the cron", async () => {
    const ids: string[] = [];
    for (let u = 0; ids.length < 150; u++) {
      const student = await signUp(`ss-wide-${u}@ufl.edu`);
      for (let i = 0; i < 19 && ids.length < 150; i++) ids.push((await saved(student, `Quartz ${ids.length}`, `q=quartz&min=${ids.length}`)).id);
    }
    await pending("q1", { title: "Quartz loft", monthly_rent: 800 });
    const watched = watchedDb();
    expect((await apiOn(watched.db, "/api/v1/admin/listings/q1/verify", verifyInit())).status).toBe(200);
    expect(watched.ours().length).toBeGreaterThan(150);
    const widest = watched.ours().reduce((max, st) => (st.binds > max.binds ? st : max));
    expect(widest.binds, widest.sql).toBeLessThanOrEqual(100);

    const emailed = async () => {
      let n = 0;
      for (const id of ids) {
        const hits = await hitsOf(id);
        expect(hits.map((h) => h.listing_id)).toEqual(["q1"]);
        if (hits[0]!.emailed_at) n++;
      }
      return n;
    };
    // The approval request sends at most 100 (it stays bounded); the cron sends the rest.
    expect(await emailed()).toBe(100);
    await runHousekeeping(env, Date.now() + 60_000);
    await drainQueues();
    expect(await emailed()).toBe(150);
    // 150 searches saved by 8 students at sign-up cost: sized for a busy 2-core machine (a limit, not a timing assertion).
  }, 60_000);
});

describe("a failing alert email", () => {
  it("is retried by the notices queue with a growing delay while the others go out, and goes once the provider works", async () => {
    const failing = await signUp("ss-bounce@ufl.edu");
    const fine = await signUp("ss-fine@ufl.edu");
    const broken = await saved(failing, "Basalt", "q=basalt");
    await saved(fine, "Basalt too", "q=basalt");
    let attempts = 0;
    const bouncing = watchedDb((sql, values) => {
      const hit = /insert into "dev_emails"/i.test(sql) && values.includes(failing.user.email);
      if (hit) attempts++;
      return hit;
    });
    await pending("b1", { title: "Basalt house" });
    expect((await apiOn(bouncing.db, "/api/v1/admin/listings/b1/verify", verifyInit())).status).toBe(200);
    expect(attempts).toBe(1);
    expect(await alerts(failing.user.email)).toEqual([]);
    expect((await alerts(fine.user.email)).map((m) => m.subject)).toEqual(['New listing for "Basalt too"']);
    // Its email job is retried after 30 s, then after 2 minutes (the platform waits; the test delivers it again).
    const failed = () => deliveries.filter((d) => (d.body as { type: string; userId?: string }).type === "email" && (d.body as { userId?: string }).userId === failing.user.id);
    expect(failed().map((d) => [d.outcome, d.delaySeconds])).toEqual([["retry", 30]]);
    await drainQueues({ retry: true, env: { ...env, DB: bouncing.db } });
    expect(attempts).toBe(2);
    expect(failed().map((d) => [d.outcome, d.delaySeconds])).toEqual([["retry", 30], ["retry", 120]]);
    // The provider works again: the waiting email goes, once; the hit was handed over with it.
    await drainQueues({ retry: true });
    expect((await alerts(failing.user.email)).map((m) => m.subject)).toEqual(['New listing for "Basalt"']);
    expect((await hitsOf(broken.id)).map((h) => h.emailed_at !== null)).toEqual([true]);
    await runHousekeeping(env, Date.now() + 25 * HOUR);
    await drainQueues();
    expect(await alerts(failing.user.email)).toHaveLength(1);
  });
});

describe("the unsubscribe link's Undo", () => {
  it("never resumes alerts paused in the profile, nor the link's own pause after an hour (409, saying why)", async () => {
    const student = await signUp("ss-undo@ufl.edu");
    const search = await saved(student, "Marble", "q=marble");
    await pending("r1", { title: "Marble flat" });
    await approve("r1");
    const token = tokenIn((await alerts(student.user.email))[0]!);
    const isPaused = async () => (await list(student)).find((s) => s.id === search.id)!.paused;

    // Paused in the profile: the old email's link cannot switch the alerts back on, even after Stop alerts.
    await send(student.access_token, "PATCH", `/${search.id}`, { paused: true });
    for (const step of ["resubscribe", "unsubscribe", "resubscribe"]) {
      const res = await post(`/api/v1/saved-searches/${step}`, { token });
      if (step === "unsubscribe") {
        expect(await json(res)).toEqual({ name: "Marble", paused: true });
        continue;
      }
      expect(res.status).toBe(409);
      expect((await json<{ detail: string }>(res)).detail).toBe("These alerts were paused in your profile; resume them there.");
      expect(await isPaused()).toBe(true);
    }

    // Resumed in the profile, stopped by the link: Undo works within the hour...
    await send(student.access_token, "PATCH", `/${search.id}`, { paused: false });
    expect(await json(await post("/api/v1/saved-searches/unsubscribe", { token }))).toEqual({ name: "Marble", paused: true });
    expect(await json(await post("/api/v1/saved-searches/resubscribe", { token }))).toEqual({ name: "Marble", paused: false });
    // ...and pressed twice it changes nothing.
    expect(await json(await post("/api/v1/saved-searches/resubscribe", { token }))).toEqual({ name: "Marble", paused: false });
    // ...but not once the link's pause is over an hour old.
    await post("/api/v1/saved-searches/unsubscribe", { token });
    await env.DB.prepare("UPDATE saved_searches SET paused_at = ? WHERE id = ?").bind(new Date(Date.now() - 61 * 60_000).toISOString(), search.id).run();
    const late = await post("/api/v1/saved-searches/resubscribe", { token });
    expect(late.status).toBe(409);
    expect((await json<{ detail: string }>(late)).detail).toBe("Undo works for an hour after stopping the alerts. Sign in and resume them from your profile.");
    expect(await isPaused()).toBe(true);
  });
});
