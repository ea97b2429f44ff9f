/**
 * Staff lists at any size (docs/decisions/038): every staff list answers one page (limit 50 by default,
 * at most 100) with a cursor, searches through an index, and admin/stats reads counts the database
 * keeps on every write. The data: the scale seed at 150 listings, past D1's 100 bound parameters.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { adminLogin, api, authed, json, post, signUp } from "../helpers";

type Page<K extends string, T> = Record<K, T[]> & { pagination: { next_token: string | null; has_more: boolean } };
type Listing = { id: string; user_id: string; created_at: string; title: string; description: string; verification_status: string; promotion_end: string | null; price_check: { comparables: number } };
type User = { id: string; email: string; first_name: string; created_at: string };

let token: string;
const admin = (path: string, init: RequestInit = {}) => api(path, authed(token, init));
const count = async (sql: string) => (await env.DB.prepare(sql).first<{ n: number }>())!.n;

/** Every page of a staff list, each page's keys: the items in order. */
async function everyPage<K extends string, T>(path: string, key: K): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let pages = 0;
  for (let next: string | null = null; ; ) {
    const res = await admin(`${path}${path.includes("?") ? "&" : "?"}${next ? `last_evaluated_key=${next}` : ""}`);
    expect(res.status, path).toBe(200);
    const page = await json<Page<K, T>>(res);
    items.push(...page[key]);
    pages++;
    expect(page.pagination.has_more).toBe(page.pagination.next_token !== null);
    next = page.pagination.next_token;
    if (!next) return { items, pages };
  }
}

beforeAll(async () => {
  token = await adminLogin();
  const seeded = await post("/api/v1/dev/scale-seed", { listings: 150, users: 60, conversations: 30, messages_per_conversation: 2 });
  expect(await json(seeded)).toMatchObject({ listings: 150, users: 60, conversations: 30 });
});

describe("staff listing tabs", () => {
  it("page through every listing newest first, 50 by default; the price check and photo check on each", async () => {
    const first = await json<Page<"listings", Listing>>(await admin("/api/v1/admin/listings"));
    expect(first.listings).toHaveLength(50);
    expect(first.pagination.has_more).toBe(true);
    expect(first.listings[0]).toHaveProperty("photo_matches");
    expect(first.listings[0]!.price_check.comparables).toBeGreaterThanOrEqual(0);
    const { items, pages } = await everyPage<"listings", Listing>("/api/v1/admin/listings?limit=40", "listings");
    expect(pages).toBe(Math.ceil((await count("SELECT count(*) AS n FROM listings")) / 40));
    expect(new Set(items.map((l) => l.id)).size).toBe(await count("SELECT count(*) AS n FROM listings"));
    const keys = items.map((l) => `${l.created_at}|${l.id}`);
    expect(keys).toEqual([...keys].sort().reverse());
  });

  it("the review queue oldest first and the promoted tab by the promotion's end, each whole", async () => {
    const pending = await everyPage<"listings", Listing>("/api/v1/admin/listings/pending?limit=7", "listings");
    expect(pending.items.length).toBe(await count("SELECT count(*) AS n FROM listings WHERE verification_status = 'pending'"));
    expect(pending.items.every((l) => l.verification_status === "pending")).toBe(true);
    const created = pending.items.map((l) => l.created_at);
    expect(created).toEqual([...created].sort());
    const promoted = await everyPage<"listings", Listing>("/api/v1/admin/listings/promoted?limit=2", "listings");
    expect(promoted.items.length).toBe(await count("SELECT count(*) AS n FROM listings WHERE promotion_end IS NOT NULL"));
    expect(promoted.items.length).toBeGreaterThan(0);
    const ends = promoted.items.map((l) => l.promotion_end!);
    expect(ends).toEqual([...ends].sort());
  });

  it("search by the listing's id, its owner's id or email, or words of its title", async () => {
    const { listings } = await json<Page<"listings", Listing>>(await admin("/api/v1/admin/listings?limit=1"));
    const one = listings[0]!;
    expect((await json<Page<"listings", Listing>>(await admin(`/api/v1/admin/listings?q=${one.id}`))).listings.map((l) => l.id)).toContain(one.id);
    const byOwner = (await json<Page<"listings", Listing>>(await admin(`/api/v1/admin/listings?q=${one.user_id}`))).listings;
    expect(byOwner.length).toBeGreaterThan(0);
    expect(byOwner.every((l) => l.user_id === one.user_id)).toBe(true);
    const owner = (await json<Page<"users", User>>(await admin(`/api/v1/admin/users?q=${one.user_id}`))).users[0]!;
    const byEmail = (await json<Page<"listings", Listing>>(await admin(`/api/v1/admin/listings?q=${encodeURIComponent(owner.email.toUpperCase())}`))).listings;
    expect(byEmail.map((l) => l.id).sort()).toEqual(byOwner.map((l) => l.id).sort());
    // Words: every match (prefixes), newest first, paged.
    const word = one.title.split(/\s+/).find((w) => /^[a-z]{4,}$/i.test(w))!.toLowerCase();
    const matches = await everyPage<"listings", Listing>(`/api/v1/admin/listings?limit=5&q=${word.slice(0, 4)}`, "listings");
    expect(matches.items.map((l) => l.id)).toContain(one.id);
    expect(matches.items.every((l) => `${l.title} ${l.description}`.toLowerCase().includes(word.slice(0, 4)))).toBe(true);
    expect(new Set(matches.items.map((l) => l.id)).size).toBe(matches.items.length);
    // In the review queue a search finds only pending listings.
    const pendingMatches = (await json<Page<"listings", Listing>>(await admin(`/api/v1/admin/listings/pending?limit=100&q=${word.slice(0, 4)}`))).listings;
    expect(pendingMatches.every((l) => l.verification_status === "pending")).toBe(true);
  });

  it("refuses a limit past 100 (422), a cursor not its own (400), and anyone but staff (401)", async () => {
    expect((await admin("/api/v1/admin/listings?limit=100")).status).toBe(200);
    for (const path of ["/api/v1/admin/listings?limit=101", "/api/v1/admin/users?limit=0", "/api/v1/feedback/admin?limit=abc", "/api/v1/admin/deals?limit=101"]) {
      const res = await admin(path);
      expect(res.status, path).toBe(422);
      expect((await json<{ detail: string }>(res)).detail).toMatch(/limit/);
    }
    expect((await admin("/api/v1/admin/listings?last_evaluated_key=bm9wZQ")).status).toBe(400);
    // A search's cursor (by rowid) is not a list's (by time).
    const words = await json<Page<"listings", Listing>>(await admin("/api/v1/admin/listings?limit=1&q=near"));
    expect((await admin(`/api/v1/admin/listings?last_evaluated_key=${words.pagination.next_token}`)).status).toBe(400);
    const student = await signUp("staff-lists-student@ufl.edu");
    for (const path of ["/api/v1/admin/listings", "/api/v1/admin/users", "/api/v1/verification/admin/all", "/api/v1/feedback/admin", "/api/v1/admin/conversations", "/api/v1/admin/deals"]) {
      expect((await api(path)).status, path).toBe(401);
      expect((await api(path, authed(student.access_token))).status, path).toBe(401);
    }
  });
});

describe("other staff lists", () => {
  it("users: newest first, every one once; search by id, email or name", async () => {
    const { items } = await everyPage<"users", User>("/api/v1/admin/users?limit=25", "users");
    expect(new Set(items.map((u) => u.id)).size).toBe(await count("SELECT count(*) AS n FROM users"));
    const u = items[7]!;
    expect((await json<Page<"users", User>>(await admin(`/api/v1/admin/users?q=${u.id}`))).users.map((x) => x.id)).toEqual([u.id]);
    expect((await json<Page<"users", User>>(await admin(`/api/v1/admin/users?q=${encodeURIComponent(u.email)}`))).users.map((x) => x.id)).toEqual([u.id]);
    const byName = await everyPage<"users", User>(`/api/v1/admin/users?limit=3&q=${u.first_name.slice(0, 3)}`, "users");
    expect(byName.items.map((x) => x.id)).toContain(u.id);
    expect(byName.items.every((x) => `${x.first_name} ${x.email}`.toLowerCase().includes(u.first_name.slice(0, 3).toLowerCase()))).toBe(true);
  });

  it("identity review: the users who never sent a document, paged; a search by email", async () => {
    type Item = { user_id: string; user_email: string };
    const { items } = await everyPage<"data", Item>("/api/v1/verification/admin/all?status=unverified&limit=2", "data");
    const expected = await count("SELECT count(*) AS n FROM users u WHERE id_verification_status = 'unverified' AND NOT EXISTS (SELECT 1 FROM verification_requests r WHERE r.user_id = u.id)");
    expect(items.length).toBe(expected);
    expect(new Set(items.map((i) => i.user_id)).size).toBe(expected);
    const one = items[0]!;
    const found = await json<{ data: Item[] }>(await admin(`/api/v1/verification/admin/all?status=unverified&q=${encodeURIComponent(one.user_email)}`));
    expect(found.data.map((i) => i.user_id)).toEqual([one.user_id]);
  });

  it("feedback stays a bare array; the next page's cursor comes in X-Next-Token", async () => {
    for (let i = 0; i < 3; i++) expect((await post("/api/v1/feedback/", { email: `paged-${i}@example.com`, message: `Note ${i}` })).status).toBe(201);
    const first = await admin("/api/v1/feedback/admin?limit=2");
    const page1 = await json<{ id: string; email: string }[]>(first);
    expect(Array.isArray(page1)).toBe(true);
    expect(page1).toHaveLength(2);
    const next = first.headers.get("X-Next-Token");
    expect(next).toBeTruthy();
    const second = await admin(`/api/v1/feedback/admin?limit=2&last_evaluated_key=${next}`);
    const page2 = await json<{ id: string }[]>(second);
    expect(page2.length).toBeGreaterThanOrEqual(1);
    expect(page2.map((f) => f.id)).not.toContain(page1[0]!.id);
    const all = [...page1, ...page2];
    if (all.length === 3) expect(second.headers.get("X-Next-Token")).toBeNull();
    const byEmail = await json<{ email: string }[]>(await admin("/api/v1/feedback/admin?q=PAGED-1@example.com"));
    expect(byEmail.map((f) => f.email)).toEqual(["paged-1@example.com"]);
  });

  it("conversations and deals: pages of the limit asked, every one once", async () => {
    const conversations = await everyPage<"conversations", { id: string }>("/api/v1/admin/conversations?limit=7", "conversations");
    expect(new Set(conversations.items.map((c) => c.id)).size).toBe(await count("SELECT count(*) AS n FROM conversations"));
    const deals = await everyPage<"data", { id: string }>("/api/v1/admin/deals?limit=4", "data");
    expect(new Set(deals.items.map((d) => d.id)).size).toBe(await count("SELECT count(*) AS n FROM deals"));
    expect((await json<{ data: unknown[] }>(await admin("/api/v1/admin/deals"))).data.length).toBe(Math.min(50, deals.items.length));
  });
});

describe("admin/stats", () => {
  type Stats = {
    users: number;
    listings: number;
    conversations: number;
    messages: number;
    pending_listings: number;
    promoted_listings: number;
    pending_verifications: number;
    open_feedback: number;
    deals_by_state: Record<string, number>;
    deals: { by_status: Record<string, number>; held_cents: number };
  };
  const stats = async () => (await json<{ stats: Stats }>(await admin("/api/v1/admin/stats"))).stats;
  /** The same figures counted from the tables. */
  async function counted() {
    const byState = (await env.DB.prepare("SELECT status, count(*) AS n FROM deals GROUP BY status").all<{ status: string; n: number }>()).results;
    return {
      users: await count("SELECT count(*) AS n FROM users"),
      listings: await count("SELECT count(*) AS n FROM listings"),
      conversations: await count("SELECT count(*) AS n FROM conversations"),
      messages: await count("SELECT count(*) AS n FROM messages"),
      pending_listings: await count("SELECT count(*) AS n FROM listings WHERE verification_status = 'pending'"),
      promoted_listings: await count("SELECT count(*) AS n FROM listings WHERE promotion_end IS NOT NULL"),
      pending_verifications: await count("SELECT count(*) AS n FROM verification_requests WHERE status = 'pending'"),
      open_feedback: await count("SELECT count(*) AS n FROM feedback WHERE archived = 0"),
      deals_by_state: Object.fromEntries(byState.map((r) => [r.status, r.n])),
    };
  }

  it("answers the tables' counts, and follows every write: a cascade, a bulk approval, an archive, a deal's move", async () => {
    expect(await stats()).toMatchObject(await counted());
    // A user deleted with their listings, conversations and messages (cascades).
    // (one without deals: money held refuses a deletion).
    const owner = await env.DB.prepare(
      "SELECT user_id AS id FROM listings WHERE user_id NOT IN (SELECT lister_id FROM deals UNION SELECT renter_id FROM deals) GROUP BY user_id ORDER BY count(*) DESC LIMIT 1",
    ).first<{ id: string }>();
    expect((await admin("/api/v1/admin/delete-item", { method: "DELETE", body: JSON.stringify({ tableName: "users", itemId: owner!.id }) })).status).toBe(200);
    expect(await stats()).toMatchObject(await counted());
    // Every pending listing approved, a chunk at a time.
    expect((await admin("/api/v1/admin/listings/verify-all", { method: "POST" })).status).toBe(200);
    const after = await stats();
    expect(after.pending_listings).toBe(0);
    expect(after).toMatchObject(await counted());
    // Feedback archived, a deal moved on (as any write of its status would).
    const [item] = await json<{ id: string }[]>(await admin("/api/v1/feedback/admin?limit=1"));
    if (item) expect((await admin(`/api/v1/feedback/admin/${item.id}/status?status=archived`, { method: "PUT" })).status).toBe(200);
    await env.DB.prepare("UPDATE deals SET status = 'cancelled' WHERE id = (SELECT id FROM deals WHERE status = 'requested' LIMIT 1)").run();
    const last = await stats();
    expect(last).toMatchObject(await counted());
    expect(last.deals.by_status).toEqual(last.deals_by_state);
  });
});

describe("verify-all at size", () => {
  it("approves every pending listing in chunks, past 100, and reports them", async () => {
    const owner = await env.DB.prepare("SELECT id FROM users WHERE id_verification_status = 'verified' LIMIT 1").first<{ id: string }>();
    const rows = Array.from({ length: 230 }, (_, n) => `('bulk${String(n).padStart(3, "0")}', ?1, 1, 'Bulk room ${n}', 'A room', '2x2', '${n} Main St', 700, 'fall', 'pending', 'available')`);
    for (let i = 0; i < rows.length; i += 50)
      await env.DB.prepare(`INSERT INTO listings (id, user_id, university_id, title, description, unit_type, address, monthly_rent, lease_term, verification_status, status) VALUES ${rows.slice(i, i + 50).join(", ")}`)
        .bind(owner!.id)
        .run();
    const pending = await count("SELECT count(*) AS n FROM listings WHERE verification_status = 'pending' AND review_reason IS NULL");
    expect(pending).toBeGreaterThanOrEqual(230);
    const res = await json<{ verified_count: number; total_listings: number }>(await admin("/api/v1/admin/listings/verify-all", { method: "POST" }));
    expect(res).toEqual({ verified_count: pending, total_listings: pending });
    expect(await count("SELECT count(*) AS n FROM listings WHERE verification_status = 'pending'")).toBe(0);
  });
});

describe("the price check at size", () => {
  it("compares a listing with the newest 100 approved listings of its university and unit type, not the whole group", async () => {
    const owner = await env.DB.prepare("SELECT id FROM users WHERE id_verification_status = 'verified' LIMIT 1").first<{ id: string }>();
    // University 7, unit type "other": 110 old approved listings at $300, then 100 newer at $1,000.
    const row = (n: number, rent: number, status: string) =>
      `('cmp${String(n).padStart(3, "0")}', ?1, 7, 'Comparable ${n}', 'A room', 'other', '${n} Main St', ${rent}, 'fall', '${status}', 'available', '${new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString()}')`;
    const rows = [...Array.from({ length: 110 }, (_, n) => row(n, 300, "approved")), ...Array.from({ length: 100 }, (_, n) => row(110 + n, 1000, "approved")), row(300, 400, "pending")];
    for (let i = 0; i < rows.length; i += 40)
      await env.DB.prepare(`INSERT INTO listings (id, user_id, university_id, title, description, unit_type, address, monthly_rent, lease_term, verification_status, status, created_at) VALUES ${rows.slice(i, i + 40).join(", ")}`)
        .bind(owner!.id)
        .run();
    type Checked = Listing & { price_check: { comparables: number; median: number; far_below: boolean } };
    const { listings } = await json<Page<"listings", Checked>>(await admin("/api/v1/admin/listings/pending?limit=100"));
    // The whole group's median is $300 (and $400 not far below it); the newest 100's is $1,000.
    expect(listings.find((l) => l.id === "cmp300")!.price_check).toMatchObject({ comparables: 100, median: 1000, far_below: true });
  });
});
