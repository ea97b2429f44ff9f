/**
 * Every answer reads about the same rows with 20,000 listings as with 20 (docs/decisions/038): the same
 * requests are made against the scale seed at 20 listings and again at 20,000 (10,000 users, 2,000
 * conversations of 5 messages, deals in every state), and each route's rows read (D1's meta.rows_read,
 * summed over the request: `x-count-rows-read`, development only) must stay within its small figure
 * plus a margin. A route that scans or sorts a table it grows with fails here. Browse's words are the one
 * figure that grows with the data up to a ceiling: ranked by relevance, or matched by few listings, a
 * search reads its newest SEARCH_WINDOW matches (a few rows each), however many listings there are.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SEARCH_WINDOW } from "../../../worker/db/browse";
import { adminLogin, api, authed, JPEG_1x1, json, post } from "../helpers";

const ROWS_READ = { request: "x-count-rows-read", answer: "x-d1-rows-read" };
const SCALE_PASSWORD = "scale-seed-password";
const SMALL = { listings: 20, users: 40, conversations: 10, messages_per_conversation: 5 };
const LARGE = { listings: 20_000, users: 10_000, conversations: 2_000, messages_per_conversation: 5 };

/** The rows a request read, and its status. */
async function rowsRead(path: string, token: string): Promise<{ status: number; rows: number }> {
  const res = await api(path, authed(token, { headers: { [ROWS_READ.request]: "1" } }));
  await res.arrayBuffer();
  return { status: res.status, rows: Number(res.headers.get(ROWS_READ.answer)) };
}

async function scaleSeed(counts: typeof SMALL) {
  const res = await post("/api/v1/dev/scale-seed", counts);
  expect(res.status).toBe(200);
  return json<{ listings: number; users: number; conversations: number; messages: number; deals: number }>(res);
}

/** Demo photos to reuse by key: the demo seed with a few tiny JPEGs. */
async function demoSeed() {
  const data = btoa(String.fromCharCode(...JPEG_1x1));
  const photos = ["01-bedroom.jpg", "02-living.jpg", "03-kitchen.jpg", "04-exterior.jpg"].map((name) => ({ name, data }));
  expect((await post("/api/v1/dev/seed", { photos })).status).toBe(201);
}

describe("rows read per request at 20 and at 20,000 listings", () => {
  it("stays within the small database's figure for every route it can reach", { timeout: 600_000 }, async () => {
    await demoSeed();
    expect(await scaleSeed(SMALL)).toMatchObject({ listings: 20, users: 40, conversations: 10, messages: 50 });

    // A renter with conversations (synthetic user 0 starts conversation 0), three favourites, and staff.
    const login = await post("/api/v1/auth/login", { email: "scale-user-0@scale.campusnest.dev", password: SCALE_PASSWORD });
    expect(login.status).toBe(200);
    const student = (await json<{ access_token: string }>(login)).access_token;
    const staff = await adminLogin();
    const browse = await json<{ data: { id: string; university_id: number }[] }>(await api("/api/v1/subleases/?limit=20", authed(student)));
    const listing = browse.data[0]!.id;
    const university = browse.data[0]!.university_id;
    for (const l of browse.data.slice(0, 3)) expect((await post("/api/v1/favorites/", { listing_id: l.id }, { Authorization: `Bearer ${student}` })).status).toBe(201);
    const inbox = await json<{ data: { id: string }[] }>(await api("/api/v1/messages/conversations/enriched", authed(student)));
    const conversation = inbox.data[0]!.id;
    for (let i = 0; i < 3; i++) expect((await post("/api/v1/feedback/", { email: `scale-feedback-${i}@example.com`, message: "The map is great." })).status).toBe(201);
    // Three identity documents waiting for review (written as a submission writes them).
    for (const n of [11, 12, 13])
      await env.DB.prepare("INSERT INTO verification_requests (id, user_id, document_type, document_key, status) VALUES (?, ?, 'student_id', ?, 'pending')")
        .bind(`scaleRequest${n}`, `sclU${String(n).padStart(17, "0")}`, `documents/scale-${n}.jpg`)
        .run();

    const routes: [name: string, path: string, token: string][] = [
      ["browse, newest", "/api/v1/subleases/?limit=20", student],
      ["browse, by price at a university", `/api/v1/subleases/?limit=1&university_id=${university}&sort=price_asc`, student],
      ["browse, words, best match", "/api/v1/subleases/?limit=20&q=furnished", student],
      ["browse, words, newest", "/api/v1/subleases/?limit=20&q=furnished&sort=newest", student],
      ["browse, rare words", "/api/v1/subleases/?limit=20&q=balcony+quiet", student],
      ["listing detail", `/api/v1/subleases/${listing}`, student],
      ["favorites", "/api/v1/favorites/", student],
      ["inbox", "/api/v1/messages/conversations", student],
      ["inbox, a page", "/api/v1/messages/conversations/enriched", student],
      ["a conversation's messages", `/api/v1/messages/conversations/${conversation}/messages`, student],
      ["unread count", "/api/v1/messages/unread-count", student],
      ["profile counts", "/api/v1/users/stats", student],
      ["admin: stats", "/api/v1/admin/stats", staff],
      ["admin: all listings", "/api/v1/admin/listings?limit=5", staff],
      ["admin: all listings, 2nd page", "NEXT /api/v1/admin/listings?limit=5", staff],
      ["admin: pending listings", "/api/v1/admin/listings/pending?limit=1", staff],
      ["admin: promoted listings", "/api/v1/admin/listings/promoted?limit=1", staff],
      ["admin: listings by words", "/api/v1/admin/listings?limit=5&q=furnished", staff],
      ["admin: users", "/api/v1/admin/users?limit=5", staff],
      ["admin: users by name", "/api/v1/admin/users?limit=5&q=alex", staff],
      ["admin: users by email", "/api/v1/admin/users?q=scale-user-7@scale.campusnest.dev", staff],
      ["admin: conversations", "/api/v1/admin/conversations?limit=5", staff],
      ["admin: deals", "/api/v1/admin/deals?limit=5", staff],
      ["admin: deals, open cases", "/api/v1/admin/deals?status=cases", staff],
      ["admin: deals, paid", "/api/v1/admin/deals?status=paid", staff],
      ["admin: identity, pending", "/api/v1/verification/admin/all?status=pending&limit=2", staff],
      ["admin: identity, never sent", "/api/v1/verification/admin/all?status=unverified&limit=5", staff],
      ["admin: feedback", "/api/v1/feedback/admin?limit=2", staff],
      ["admin: reports", "/api/v1/admin/reports", staff],
      ["admin: safety queue", "/api/v1/admin/safety", staff],
    ];
    /** Each route's rows read; "NEXT path" reads the page after the first (its cursor from the first answer). */
    async function measure(): Promise<Map<string, number>> {
      const out = new Map<string, number>();
      for (const [name, route, token] of routes) {
        let path = route;
        if (route.startsWith("NEXT ")) {
          path = route.slice(5);
          const first = await json<{ pagination: { next_token: string } }>(await api(path, authed(token)));
          path = `${path}&last_evaluated_key=${first.pagination.next_token}`;
        }
        const { status, rows } = await rowsRead(path, token);
        expect(status, name).toBe(200);
        out.set(name, rows);
      }
      return out;
    }

    const small = await measure();
    expect(await scaleSeed(LARGE)).toMatchObject({ listings: 20_000, users: 10_000, conversations: 2_000, messages: 10_000 });
    const large = await measure();

    const table = routes.map(([name]) => `${name.padEnd(36)} ${String(small.get(name)).padStart(6)} ${String(large.get(name)).padStart(6)}`);
    console.log(`rows read per request (route, at 20 listings, at 20,000)\n${table.join("\n")}`);
    for (const [name, path] of routes) {
      const [s, l] = [small.get(name)!, large.get(name)!];
      expect(s, `${name}: counted`).toBeGreaterThan(0);
      // The same work on a page that is as full at 20 as at 20,000 listings: a little more where a
      // page's listings have more comparables (the price check reads at most 100 of a group), or
      // the words' window (at most SEARCH_WINDOW matches, each joined to its listing and ranked).
      const budget = path.startsWith("/api/v1/subleases/?") && path.includes("q=") ? SEARCH_WINDOW * 8 : Math.ceil(s * 1.5) + 40;
      expect(l, `${name}: ${s} rows at 20 listings, ${l} at 20,000`).toBeLessThanOrEqual(budget);
    }
  });
});
