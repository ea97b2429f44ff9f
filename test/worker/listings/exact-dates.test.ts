/** Exact dates (docs/decisions/021): listings carry the stay they offer; browse finds those free for a whole stay. */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { BrowseResponse, CreateListingResponse, OwnerListingResponse } from "../../../worker/contract/listings";
import { api, authed, dataUrl, insertListing as insertOwnListing, JPEG_1x1, json, type Session, signUp } from "../helpers";
import { monthOf, STAY_CELL_SPAN, stayCells } from "../../../worker/db/browse/cells";

let owner: Session;
let verified: Session;

const insertListing = (id: string, fields: Record<string, string | number | null> = {}) => insertOwnListing(owner.user.id, id, fields);

async function browse(query = ""): Promise<BrowseResponse> {
  const res = await api(`/api/v1/subleases/?${query}`);
  expect(res.status).toBe(200);
  return json<BrowseResponse>(res);
}

async function walk(query: string, limit: number): Promise<{ ids: string[]; pages: BrowseResponse[] }> {
  const ids: string[] = [];
  const pages: BrowseResponse[] = [];
  let token: string | null = null;
  for (let i = 0; i < 100; i++) {
    const page: BrowseResponse = await browse(`${query}&limit=${limit}${token ? `&last_evaluated_key=${encodeURIComponent(token)}` : ""}`);
    pages.push(page);
    ids.push(...page.data.map((l) => l.id));
    token = page.pagination.next_token;
    if (!token) break;
  }
  return { ids, pages };
}

const SUMMER_STAY = "available_from=2026-05-20&available_to=2026-08-10";

beforeAll(async () => {
  owner = await signUp("owner@ufl.edu");
  verified = await signUp("verified@ufl.edu");
  await env.DB.prepare("UPDATE users SET id_verification_status = 'verified' WHERE id = ?").bind(verified.user.id).run();
  // Around the summer stay May 20 - Aug 10, 2026.
  await insertListing("d01", { lease_term: "summer", available_from: "2026-05-20", available_to: "2026-08-10" }); // exactly the stay
  await insertListing("d02", { lease_term: "summer", available_from: "2026-05-20", available_to: "2026-08-09" }); // ends a day early
  await insertListing("d03", { lease_term: "summer", available_from: "2026-05-21", available_to: "2026-08-10" }); // starts a day late
  await insertListing("d04", { lease_term: "summer" }); // no dates
  await insertListing("d05", { lease_term: "summer", available_from: "2026-05-15", available_to: "2026-08-15", university_id: 2 }); // typical summer
  await insertListing("d06", { lease_term: "spring", available_from: "2026-01-05", available_to: "2026-08-31" }); // spring, stays on
  await insertListing("d07", { lease_term: "summer", available_from: "2026-05-01", available_to: "2026-09-01", verification_status: "pending" }); // not public
});

async function uploadPhoto(s: Session): Promise<string> {
  const res = await api(
    "/api/v1/upload/multiple-base64",
    authed(s.access_token, { method: "POST", body: JSON.stringify({ images: [{ filename: "room.jpg", content_type: "image/jpeg", image_data: dataUrl(JPEG_1x1) }] }) }),
  );
  expect(res.status).toBe(200);
  return (await json<{ uploaded_files: { url: string }[] }>(res)).uploaded_files[0]!.url;
}

const newListing = (pictures: string[], extra: Record<string, unknown> = {}) => ({
  title: "Summer room near campus",
  description: "A bright room",
  unit_type: "2x2",
  monthly_rent: 850,
  address: "12 Oak St, Gainesville, FL",
  lease_term: "summer",
  university_id: 3,
  pictures,
  ...extra,
});

const create = (body: unknown) => api("/api/v1/subleases/", authed(verified.access_token, { method: "POST", body: JSON.stringify(body) }));

describe("listing dates", () => {
  it("creates with dates, answers them (null without), edits and clears them", async () => {
    const url = await uploadPhoto(verified);
    const res = await create(newListing([url], { available_from: "2026-05-20", available_to: "2026-08-10" }));
    expect(res.status).toBe(201);
    const { id, data } = await json<CreateListingResponse>(res);
    expect(data).toMatchObject({ available_from: "2026-05-20", available_to: "2026-08-10" });

    const plain = await json<CreateListingResponse>(await create(newListing([url])));
    expect(plain.data).toMatchObject({ available_from: null, available_to: null });

    const patch = (body: unknown) => api(`/api/v1/subleases/${id}`, authed(verified.access_token, { method: "PATCH", body: JSON.stringify(body) }));
    const edited = await patch({ available_from: "2026-06-01", available_to: "2026-08-01" });
    expect(edited.status).toBe(200);
    expect((await json<OwnerListingResponse>(edited)).data).toMatchObject({ available_from: "2026-06-01", available_to: "2026-08-01" });
    expect((await patch({ available_from: "2026-06-01" })).status).toBe(422);
    expect((await patch({ available_from: "2026-09-01", available_to: "2026-08-01" })).status).toBe(422);
    const cleared = await patch({ available_from: null, available_to: null });
    expect((await json<OwnerListingResponse>(cleared)).data).toMatchObject({ available_from: null, available_to: null });
    // The detail page answers them too.
    const detail = await json<{ data: { available_from: string | null } }>(await api(`/api/v1/subleases/${id}`, authed(verified.access_token)));
    expect(detail.data.available_from).toBeNull();
  });

  it("refuses dates out of order, one without the other, and non-dates, with a readable message", async () => {
    const url = await uploadPhoto(verified);
    const reversed = await create(newListing([url], { available_from: "2026-08-10", available_to: "2026-05-20" }));
    expect(reversed.status).toBe(422);
    expect((await json<{ detail: string }>(reversed)).detail).toBe('"Available to" must be after "Available from"');
    const same = await create(newListing([url], { available_from: "2026-05-20", available_to: "2026-05-20" }));
    expect(same.status).toBe(422);
    const fromOnly = await create(newListing([url], { available_from: "2026-05-20" }));
    expect(fromOnly.status).toBe(422);
    expect((await json<{ detail: string }>(fromOnly)).detail).toMatch(/Available to.*both dates or neither/);
    const toOnly = await create(newListing([url], { available_to: "2026-05-20" }));
    expect(toOnly.status).toBe(422);
    const notADate = await create(newListing([url], { available_from: "2026-02-30", available_to: "2026-05-20" }));
    expect(notADate.status).toBe(422);
    expect((await json<{ detail: string }>(notADate)).detail).toMatch(/YYYY-MM-DD/);
  });
});

describe("browse by the stay needed", () => {
  it("finds listings free for the whole stay, to the day; never one without dates", async () => {
    const page = await browse(SUMMER_STAY);
    expect(page.data.map((l) => l.id)).toEqual(["d06", "d05", "d01"]);
    expect(page.data.find((l) => l.id === "d01")).toMatchObject({ available_from: "2026-05-20", available_to: "2026-08-10" });
  });

  it("keeps the term filter and the university filter working with the dates", async () => {
    expect((await browse(`${SUMMER_STAY}&lease_term=summer`)).data.map((l) => l.id)).toEqual(["d05", "d01"]);
    expect((await browse(`${SUMMER_STAY}&lease_term=spring`)).data.map((l) => l.id)).toEqual(["d06"]);
    expect((await browse(`${SUMMER_STAY}&university_id=2`)).data.map((l) => l.id)).toEqual(["d05"]);
    expect((await browse(`${SUMMER_STAY}&sort=price_asc`)).data.map((l) => l.id).sort()).toEqual(["d01", "d05", "d06"]);
    // Without dates, the term alone still finds every summer listing.
    expect((await browse("lease_term=summer")).data.map((l) => l.id)).toEqual(["d05", "d04", "d03", "d02", "d01"]);
  });

  it("answers 422 with a readable detail for half a stay, a stay out of order, or a non-date", async () => {
    const half = await api("/api/v1/subleases/?available_from=2026-05-20");
    expect(half.status).toBe(422);
    expect((await json<{ detail: string }>(half)).detail).toBe('Please also give "available_to" (both dates or neither)');
    const reversed = await api("/api/v1/subleases/?available_from=2026-08-10&available_to=2026-05-20");
    expect(reversed.status).toBe(422);
    expect((await json<{ detail: string }>(reversed)).detail).toBe('"available_to" must be after "available_from"');
    expect((await api("/api/v1/subleases/?available_from=may&available_to=2026-05-20")).status).toBe(422);
  });
});

describe("browse by dates at a few hundred listings", () => {
  beforeAll(async () => {
    // 400 listings, a third of each term, each listed for its term's typical dates, one in eight
    // without dates: about 29% of them cover the summer stay.
    const rows: string[] = [];
    const terms = ["fall", "spring", "summer"] as const;
    const dates = { fall: ["2026-08-20", "2026-12-20"], spring: ["2027-01-05", "2027-05-15"], summer: ["2026-05-15", "2026-08-15"] };
    for (let i = 0; i < 400; i++) {
      const term = terms[i % 3]!;
      const [from, to] = dates[term];
      const none = i % 8 === 5;
      const created = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
      rows.push(
        `('s${String(i).padStart(4, "0")}','${owner.user.id}',1,'Room ${i}','A room','2x2','${i} Main St',${500 + (i % 50) * 10},'${term}','approved','available','${created}',${none ? "NULL" : `'${from}'`},${none ? "NULL" : `'${to}'`})`,
      );
    }
    for (let i = 0; i < rows.length; i += 100) {
      await env.DB.prepare(
        `INSERT INTO listings (id,user_id,university_id,title,description,unit_type,address,monthly_rent,lease_term,verification_status,status,created_at,available_from,available_to) VALUES ${rows.slice(i, i + 100).join(",")}`,
      ).run();
    }
  });

  it("returns each matching listing once over a cursor walk, in order", async () => {
    const expected = await env.DB.prepare(
      `SELECT id FROM listings WHERE verification_status = 'approved' AND status = 'available' AND available_from <= '2026-05-20' AND available_to >= '2026-08-10' ORDER BY created_at DESC, id DESC`,
    ).all<{ id: string }>();
    const { ids } = await walk(SUMMER_STAY, 7);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expected.results.map((r) => r.id));
    const priced = await walk(`${SUMMER_STAY}&sort=price_desc`, 9);
    expect(new Set(priced.ids).size).toBe(priced.ids.length);
    expect(priced.ids.sort()).toEqual(expected.results.map((r) => r.id).sort());
  });

  it("reads about the rows it returns: the stay's cells, not every listing (docs/decisions/021)", async () => {
    // Dates alone: about 29% of these listings cover the stay, but browse reads only the cells that
    // can (here the summer ones), where every row but the edge months' few covers it.
    // Every page: past the first, each arm seeks to the cursor, and empty cells must still cost nothing.
    for (const query of [SUMMER_STAY, `${SUMMER_STAY}&university_id=1`, `${SUMMER_STAY}&lease_term=summer&university_id=1`, `${SUMMER_STAY}&sort=price_asc`, `${SUMMER_STAY}&sort=distance`,
      // Bounded walks (a rent bound in price order): an empty cell's seek must still cost nothing.
      `${SUMMER_STAY}&sort=price_asc&min_rent=600`, `${SUMMER_STAY}&sort=price_desc&max_rent=900&university_id=1`]) {
      const { pages } = await walk(query, 20);
      const full = pages.filter((page) => page.data.length === 20);
      expect(full.length, query).toBeGreaterThanOrEqual(3);
      for (const page of full) expect(page.meta.rows_read, query).toBeLessThanOrEqual(1.5 * 20);
    }
    // A stay nobody covers reads next to nothing: its cells are empty (a walk along the newest index
    // read all 400 listings to find that out).
    const none = await browse("available_from=2031-02-01&available_to=2031-03-01&limit=20");
    expect(none.data).toHaveLength(0);
    expect(none.meta.rows_read).toBeLessThanOrEqual(5);
  });
});

describe("stay cells (docs/decisions/021): the same answers as the rule itself", () => {
  beforeAll(async () => {
    // 160 listings with dates of every shape: a day to 30 months long (a fifth longer than
    // STAY_CELL_SPAN), starting anywhere from mid-2025 to mid-2027, two universities, distances known
    // or not. A small generator of its own, so the data is the same on every run.
    let seed = 11;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const rows: string[] = [];
    for (let i = 0; i < 160; i++) {
      const start = Date.UTC(2025, 5, 1) + Math.floor(rand() * 730) * 86_400_000;
      const days = i % 5 === 0 ? 366 + Math.floor(rand() * 550) : 1 + Math.floor(rand() * 300);
      const distance = rand() < 0.2 ? "NULL" : (Math.floor(rand() * 80) / 10).toFixed(1);
      const created = new Date(Date.UTC(2025, 3, 1) + i * 3_600_000).toISOString();
      rows.push(
        `('c${String(i).padStart(3, "0")}','${owner.user.id}',${1 + (i % 2) * 2},'Cell room ${i}','A room','2x2','${i} Cell St',${500 + Math.floor(rand() * 20) * 25},'fall','approved','available','${created}','${day(start)}','${day(start + days * 86_400_000)}',${distance})`,
      );
    }
    for (let i = 0; i < rows.length; i += 80) {
      await env.DB.prepare(
        `INSERT INTO listings (id,user_id,university_id,title,description,unit_type,address,monthly_rent,lease_term,verification_status,status,created_at,available_from,available_to,distance_miles) VALUES ${rows.slice(i, i + 80).join(",")}`,
      ).run();
    }
  });

  const STAYS = [
    ["2026-05-20", "2026-08-10"], // a summer
    ["2026-06-01", "2026-06-20"], // within one month: the most cells
    ["2026-12-20", "2027-01-05"], // across a new year
    ["2026-03-31", "2026-04-01"], // the last and first day of two months
    ["2026-01-01", "2027-06-30"], // longer than STAY_CELL_SPAN months: long listings only
  ];
  const SORTS = [
    ["newest", "created_at DESC, id DESC"],
    ["price_asc", "monthly_rent ASC, id ASC"],
    ["price_desc", "monthly_rent DESC, id DESC"],
    ["distance", "distance_key ASC, id ASC"],
  ];

  it("every sort, with and without a university, over a cursor walk", async () => {
    let compared = 0;
    for (const [from, to] of STAYS) {
      for (const [sort, order] of SORTS) {
        for (const university of [null, 3]) {
          const expected = await env.DB.prepare(
            `SELECT id FROM listings WHERE verification_status = 'approved' AND status = 'available' AND moderation_status = 'visible'
             AND available_from <= ?1 AND available_to >= ?2 ${university ? `AND university_id = ${university}` : ""} ORDER BY ${order}`,
          )
            .bind(from, to)
            .all<{ id: string }>();
          const query = `available_from=${from}&available_to=${to}&sort=${sort}${university ? `&university_id=${university}` : ""}`;
          const { ids } = await walk(query, 25);
          expect(ids, query).toEqual(expected.results.map((r) => r.id));
          compared += ids.length;
        }
      }
    }
    // The shapes above do find listings, long ones included (not a comparison of empty lists).
    expect(compared).toBeGreaterThan(300);
    expect((await browse("available_from=2026-01-01&available_to=2027-06-30")).data.length).toBeGreaterThan(0);
  }, 60_000);

  it("with every filter at once, on a stay within one month, in every sort (the most cells: one statement within D1's limits)", async () => {
    // D1 caps a statement at 100 KB and, through workerd, at about 21,500 SQLite opcodes; this case
    // (92 arms, a cursor past page 1) comes closest to both (decision 021), the price sorts the most.
    for (const [sort, order] of SORTS) {
      const expected = await env.DB.prepare(
        `SELECT id FROM listings WHERE verification_status = 'approved' AND status = 'available' AND moderation_status = 'visible'
         AND available_from <= '2026-06-01' AND available_to >= '2026-06-20' AND university_id = 3 AND lease_term = 'fall' AND unit_type = '2x2'
         AND parking = 0 AND allow_pets = 0 AND gender_preference = 'no_preference' AND monthly_rent BETWEEN 500 AND 900 AND distance_key <= 5
         ORDER BY ${order}`,
      ).all<{ id: string }>();
      const { ids } = await walk(
        "available_from=2026-06-01&available_to=2026-06-20&university_id=3&lease_term=fall&unit_type=2x2&parking=false&allow_pets=false" +
          `&gender_preference=no_preference&min_rent=500&max_rent=900&within_miles=5&sort=${sort}`,
        2,
      );
      expect(ids, sort).toEqual(expected.results.map((r) => r.id));
      expect(ids.length).toBeGreaterThan(2);
    }
    // The longest university id validation accepts (no listing there: the longest statement still runs).
    const huge = await browse(
      `available_from=2026-06-01&available_to=2026-06-20&university_id=${Number.MAX_SAFE_INTEGER}&lease_term=fall&unit_type=2x2` +
        `&parking=false&allow_pets=false&gender_preference=no_preference&min_rent=500&max_rent=900&within_miles=5&sort=price_desc`,
    );
    expect(huge.data).toEqual([]);
  });

  it("answers extreme stays and the widest distance without an error", async () => {
    for (const query of [
      "available_from=0001-01-01&available_to=9999-12-31",
      "available_from=9999-11-01&available_to=9999-12-31&sort=price_desc",
      "available_from=0001-01-01&available_to=0001-01-02&university_id=3&within_miles=50&sort=distance",
      "within_miles=50&university_id=3&min_rent=1&max_rent=100000&lease_term=fall&unit_type=2x2&parking=false&allow_pets=false",
    ]) {
      // browse() asserts the 200; every listing returned still meets the filters.
      const { pages } = await walk(query, 3);
      const params = new URLSearchParams(query);
      for (const l of pages.flatMap((p) => p.data)) {
        if (params.get("available_from")) expect(l.available_from! <= params.get("available_from")! && l.available_to! >= params.get("available_to")!, query).toBe(true);
        if (params.get("within_miles")) expect(l.distance_miles, query).not.toBeNull();
      }
    }
    // Only the widest distance finds anything here (nobody is available from year 1).
    expect((await walk("within_miles=50&university_id=3", 50)).ids.length).toBeGreaterThan(0);
  });

  it("with free text too (the full-text index leads there)", async () => {
    const expected = await env.DB.prepare(
      `SELECT id FROM listings WHERE verification_status = 'approved' AND status = 'available' AND available_from <= '2026-05-20' AND available_to >= '2026-08-10'
       AND title LIKE 'Cell room%' ORDER BY created_at DESC, id DESC`,
    ).all<{ id: string }>();
    // Newest first, chosen: a search alone goes by relevance.
    const { ids } = await walk(`${SUMMER_STAY}&q=cell&sort=newest`, 8);
    expect(ids).toEqual(expected.results.map((r) => r.id));
    expect(ids.length).toBeGreaterThan(0);
  });

  it("a covering listing of at most STAY_CELL_SPAN months is always in one of the stay's cells", () => {
    let seed = 5;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    let covering = 0;
    for (let i = 0; i < 3000; i++) {
      const s = Date.UTC(2026, 0, 1) + Math.floor(rand() * 700) * 86_400_000;
      const stay = [day(s), day(s + (1 + Math.floor(rand() * 200)) * 86_400_000)] as const;
      const f = s - Math.floor(rand() * 400) * 86_400_000;
      const listing = [day(f), day(f + Math.floor(rand() * 420) * 86_400_000)] as const;
      const long = monthOf(listing[1]) - monthOf(listing[0]) > STAY_CELL_SPAN;
      if (listing[0] > stay[0] || listing[1] < stay[1] || long) continue;
      covering++;
      expect(stayCells(stay[0], stay[1]), `${listing} covers ${stay}`).toContainEqual([monthOf(listing[0]), monthOf(listing[1])]);
    }
    expect(covering).toBeGreaterThan(200);
    expect(stayCells("2026-06-01", "2026-06-20")).toHaveLength(91);
    expect(stayCells("2026-01-01", "2027-06-30")).toHaveLength(0);
  });
});
