/** A public listing never carries review notes, payment ids or the place's coordinates; the owner's own listing does. */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../../worker/db/client";
import { findListingRow } from "../../../worker/db/queries/listings";
import { getConfig } from "../../../worker/env";
import { updateOwnListing } from "../../../worker/services/listings";
import { runHousekeeping } from "../../../worker/services/housekeeping";
import { adminLogin, api, authed, dataUrl, insertListing, JPEG_1x1, json, post, type Session, signUp } from "../helpers";

const OWNER_ONLY = ["rejection_reason", "review_reason", "stripe_subscription_id", "latitude", "longitude"];

let owner: Session;
let visitor: Session;

beforeAll(async () => {
  owner = await signUp("visibility-owner@ufl.edu");
  visitor = await signUp("visibility-visitor@ufl.edu");
  await insertListing(owner.user.id, "v01", {
    stripe_subscription_id: "sub_visible_1",
    rejection_reason: "An old note",
    review_reason: "Photos match another listing",
    latitude: 29.651234,
    longitude: -82.325678,
    distance_miles: 1.4,
  });
});

describe("public and owner listings", () => {
  it("browse, a non-owner's detail and favourites carry neither owner-only field", async () => {
    const page = await json<{ data: Record<string, unknown>[] }>(await api("/api/v1/subleases"));
    const listed = page.data.find((l) => l.id === "v01");
    expect(listed).toBeDefined();

    const anonymous = await json<{ data: Record<string, unknown> }>(await api("/api/v1/subleases/v01"));
    const other = await json<{ data: Record<string, unknown> }>(await api("/api/v1/subleases/v01", authed(visitor.access_token)));

    const add = await api("/api/v1/favorites", authed(visitor.access_token, { method: "POST", body: JSON.stringify({ listing_id: "v01" }) }));
    expect(add.status).toBe(201);
    const added = await json(add);
    const favorites = await json<{ favorites: Record<string, unknown>[] }>(await api("/api/v1/favorites", authed(visitor.access_token)));
    expect(favorites.favorites.map((f) => f.listing_id)).toContain("v01");

    for (const body of [listed!, anonymous.data, other.data, ...favorites.favorites, added]) {
      for (const field of OWNER_ONLY) expect(body).not.toHaveProperty(field);
    }
    expect(JSON.stringify([page, anonymous, other, favorites])).not.toContain("sub_visible_1");
    // The distance is public; the coordinates it came from are not (docs/decisions/019).
    expect(anonymous.data.distance_miles).toBe(1.4);
    expect(JSON.stringify([page, anonymous, other, favorites, added])).not.toContain("82.325678");
  });

  it("the owner's detail and own listings carry both", async () => {
    const mine = await json<{ data: Record<string, unknown> }>(await api("/api/v1/subleases/v01", authed(owner.access_token)));
    expect(mine.data).toMatchObject({ stripe_subscription_id: "sub_visible_1", rejection_reason: "An old note", review_reason: "Photos match another listing", latitude: 29.651234, longitude: -82.325678 });
    const own = await json<{ data: Record<string, unknown>[] }>(await api("/api/v1/users/listings", authed(owner.access_token)));
    expect(own.data.find((l) => l.id === "v01")).toMatchObject({ stripe_subscription_id: "sub_visible_1", review_reason: "Photos match another listing" });
  });
});

// An owner's material edit sends an approved listing back to review (contract/owner-rules
// editNeedsReview): off browse at once; anything else keeps it live.
describe("material edits of an approved listing", () => {
  let editor: Session;
  const patch = async (id: string, body: Record<string, unknown>) => {
    const res = await api(`/api/v1/subleases/${id}`, authed(editor.access_token, { method: "PATCH", body: JSON.stringify(body) }));
    expect(res.status).toBe(200);
    return (await json<{ data: { verification_status: string } }>(res)).data.verification_status;
  };
  const onBrowse = async (id: string) => (await json<{ data: { id: string }[] }>(await api("/api/v1/subleases/?limit=100"))).data.some((l) => l.id === id);
  /** An approved listing written straight to D1; the edge cache's generation moves as the approval's write would have. */
  const approved = async (id: string, fields: Record<string, string | number | null> = {}) => {
    await insertListing(editor.user.id, id, { unit_type: "2x2", university_id: 1, monthly_rent: 1000, approved_rent: 1000, ...fields });
    await env.DB.prepare("UPDATE cache_generation SET generation = generation + 1 WHERE id = 1").run();
  };
  const photo = (key: string, position: number, listingId: string) =>
    env.DB.prepare("INSERT INTO listing_photos (id, listing_id, key, thumb_key, position) VALUES (?, ?, ?, NULL, ?)").bind(`${listingId}-${position}`, listingId, key, position).run();

  beforeAll(async () => {
    editor = await signUp("material-editor@ufl.edu");
  });

  it.each([
    ["university", { university_id: 2 }],
    ["unit type", { unit_type: "studio" }],
    ["address", { address: "1 Somewhere Else Ave" }],
  ])("a new %s sends it back to review and takes it off browse", async (_name, change) => {
    const id = `mf-${Object.keys(change)[0]}`;
    await approved(id);
    expect(await onBrowse(id)).toBe(true);
    expect(await patch(id, change)).toBe("pending");
    expect(await onBrowse(id)).toBe(false);
    expect((await api(`/api/v1/subleases/${id}`)).status).toBe(404);
  });

  it("photos reordered, removed or added send it back to review; the same photos in the same order do not", async () => {
    const keys = [`listings/${editor.user.id}_a.jpg`, `listings/${editor.user.id}_b.jpg`];
    const url = (key: string) => `/api/v1/images/${key}`;
    for (const id of ["mp-same", "mp-order", "mp-remove", "mp-add"]) {
      await approved(id);
      await photo(keys[0]!, 0, id);
      await photo(keys[1]!, 1, id);
    }
    expect(await patch("mp-same", { pictures: keys.map(url) })).toBe("approved");
    expect(await patch("mp-order", { pictures: [...keys].reverse().map(url) })).toBe("pending");
    expect(await onBrowse("mp-order")).toBe(false);
    expect(await patch("mp-remove", { pictures: [url(keys[0]!)] })).toBe("pending");
    const upload = await api(
      "/api/v1/upload/multiple-base64",
      authed(editor.access_token, { method: "POST", body: JSON.stringify({ images: [{ filename: "c.jpg", content_type: "image/jpeg", image_data: dataUrl(JPEG_1x1) }] }) }),
    );
    const added = (await json<{ uploaded_files: { url: string }[] }>(upload)).uploaded_files[0]!.url;
    expect(await patch("mp-add", { pictures: [...keys.map(url), added] })).toBe("pending");
    expect(await onBrowse("mp-same")).toBe(true);
  });

  it.each([
    ["title", { title: "Sunny room, 5 min to campus" }],
    ["description", { description: "Sunny room near campus. Pay the deposit by Zelle before a viewing." }],
  ])("a new %s sends it back to review (staff read every new word)", async (_name, change) => {
    const id = `mt-${Object.keys(change)[0]}`;
    await approved(id);
    expect(await patch(id, change)).toBe("pending");
    expect(await onBrowse(id)).toBe(false);
  });

  it("dates, parking, pets or a higher rent keep it live", async () => {
    await approved("mn-1");
    expect(await patch("mn-1", { parking: true, allow_pets: true, lease_term: "summer" })).toBe("approved");
    expect(await patch("mn-1", { monthly_rent: 1400 })).toBe("approved");
    expect(await onBrowse("mn-1")).toBe(true);
  });

  it("a material edit read while pending that lands after staff approved the version before it goes back to review", async () => {
    await insertListing(editor.user.id, "mrace-1", { verification_status: "pending" });
    await insertListing(editor.user.id, "mrace-2", { verification_status: "pending" });
    // The owner's edit read the listing as pending; staff approve that version before the edit is written.
    const [stale1, stale2] = [(await findListingRow(createDb(env), "mrace-1"))!, (await findListingRow(createDb(env), "mrace-2"))!];
    const token = await adminLogin();
    for (const id of ["mrace-1", "mrace-2"]) {
      expect((await api(`/api/v1/admin/listings/${id}/verify`, authed(token, { method: "PATCH", body: JSON.stringify({ status: "approved" }) }))).status).toBe(200);
    }
    const config = getConfig(env);
    expect((await updateOwnListing(createDb(env), env, config, editor.user.id, stale1, { monthly_rent: 150 })).verification_status).toBe("pending");
    expect(await onBrowse("mrace-1")).toBe(false);
    // Not material: the approval stands.
    expect((await updateOwnListing(createDb(env), env, config, editor.user.id, stale2, { parking: true })).verification_status).toBe("approved");
    // Still pending (no decision in between): the edit leaves it pending, as it was.
    await insertListing(editor.user.id, "mrace-3", { verification_status: "pending" });
    const fresh = (await findListingRow(createDb(env), "mrace-3"))!;
    expect((await updateOwnListing(createDb(env), env, config, editor.user.id, fresh, { title: "A new title" })).verification_status).toBe("pending");
  });

  it("rent: a cut of exactly a quarter of the approved rent stays live, one dollar more goes to review, counted from the approved rent", async () => {
    await approved("mr-1");
    expect(await patch("mr-1", { monthly_rent: 750 })).toBe("approved");
    await approved("mr-2");
    expect(await patch("mr-2", { monthly_rent: 749 })).toBe("pending");
    // Step by step: 1000 -> 800 stays live, 800 -> 749 is 6% of 800 but 25.1% of the approved 1000.
    await approved("mr-3");
    expect(await patch("mr-3", { monthly_rent: 800 })).toBe("approved");
    expect(await patch("mr-3", { monthly_rent: 749 })).toBe("pending");
    // Staff approving it again makes 749 the approved rent.
    const token = await adminLogin();
    expect((await api("/api/v1/admin/listings/mr-3/verify", authed(token, { method: "PATCH", body: JSON.stringify({ status: "approved" }) }))).status).toBe(200);
    expect((await env.DB.prepare("SELECT approved_rent FROM listings WHERE id = 'mr-3'").first<{ approved_rent: number }>())!.approved_rent).toBe(749);
    expect(await patch("mr-3", { monthly_rent: 600 })).toBe("approved");
    // A rent staff set on an approved listing is a reviewed figure: cuts count from it.
    expect((await api("/api/v1/admin/listings/mr-3", authed(token, { method: "PATCH", body: JSON.stringify({ monthly_rent: 900 }) }))).status).toBe(200);
    expect((await env.DB.prepare("SELECT approved_rent FROM listings WHERE id = 'mr-3'").first<{ approved_rent: number }>())!.approved_rent).toBe(900);
    expect(await patch("mr-3", { monthly_rent: 674 })).toBe("pending");
  });

  it("rent: lowered below the price check's line (half the median of 5 similar) goes to review; exactly on the line does not", async () => {
    // Five similar approved listings (university 4, 3x3) at 1000: median 1000, line 500.
    for (let i = 0; i < 5; i++) await insertListing(editor.user.id, `mc-${i}`, { university_id: 4, unit_type: "3x3", monthly_rent: 1000 });
    await approved("mc-on", { university_id: 4, unit_type: "3x3", monthly_rent: 520, approved_rent: 520 });
    expect(await patch("mc-on", { monthly_rent: 500 })).toBe("approved");
    await approved("mc-below", { university_id: 4, unit_type: "3x3", monthly_rent: 520, approved_rent: 520 });
    expect(await patch("mc-below", { monthly_rent: 499 })).toBe("pending");
    expect(await onBrowse("mc-below")).toBe(false);
  });

  it("a listing under review is edited freely (it stays pending; the edit is a new revision)", async () => {
    await approved("mv-1", { verification_status: "pending" });
    expect(await patch("mv-1", { title: "Anything" })).toBe("pending");
    expect((await env.DB.prepare("SELECT revision FROM listings WHERE id = 'mv-1'").first<{ revision: number }>())!.revision).toBe(1);
  });
});

// Decision 024: the address as entered is the owner's and staff's (and, on the deal, an accepted
// renter's); everyone else reads and searches the street and area, on every route that shows a listing.
describe("the public address", () => {
  const FULL = "177 Bleecker St, Apt 4B, New York, NY 10003";
  const PUBLIC = "Bleecker St, New York, NY 10003";
  let lister: Session;
  let student: Session;
  let adminToken: string;
  const hasFull = (body: unknown) => {
    const text = JSON.stringify(body);
    return text.includes("177 Bleecker") || text.includes("Apt 4B");
  };
  const search = async (q: string) =>
    (await json<{ data: { id: string; address: string }[] }>(await api(`/api/v1/subleases/?limit=100&q=${encodeURIComponent(q)}`))).data;
  const approve = async (id: string) => {
    const res = await api(`/api/v1/admin/listings/${id}/verify`, authed(adminToken, { method: "PATCH", body: JSON.stringify({ status: "approved" }), headers: { "content-type": "application/json" } }));
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    lister = await signUp("address-lister@ufl.edu");
    student = await signUp("address-student@ufl.edu");
    adminToken = await adminLogin();
    await insertListing(lister.user.id, "a01", { address: FULL, title: "Room in the Village", latitude: 40.72904, longitude: -74.00134 });
  });

  it("a visitor and another student get the street and area on browse, detail, favourites and conversations", async () => {
    for (const viewer of [null, student]) {
      const browsed = await json<{ data: { id: string; address: string }[] }>(await api("/api/v1/subleases/?limit=100", viewer ? authed(viewer.access_token) : {}));
      expect(browsed.data.find((l) => l.id === "a01")?.address).toBe(PUBLIC);
      expect(hasFull(browsed)).toBe(false);
    }
    for (const viewer of [null, student]) {
      const res = await api("/api/v1/subleases/a01", viewer ? authed(viewer.access_token) : {});
      const body = await json<{ data: Record<string, unknown> }>(res);
      expect(body.data.address).toBe(PUBLIC);
      expect(body.data).not.toHaveProperty("address_public");
      expect(hasFull(body)).toBe(false);
    }
    // Favourites answer ids (the card reads the detail above); the conversation's listing is a title and a photo.
    expect((await api("/api/v1/favorites", authed(student.access_token, { method: "POST", body: JSON.stringify({ listing_id: "a01" }) }))).status).toBe(201);
    const favorites = await json(await api("/api/v1/favorites", authed(student.access_token)));
    const started = await post("/api/v1/messages/conversations", { participant_id: lister.user.id, listing_id: "a01" }, { Authorization: `Bearer ${student.access_token}` });
    expect([200, 201]).toContain(started.status);
    const conversations = await json(await api("/api/v1/messages/conversations", authed(student.access_token)));
    const listerSide = await json(await api("/api/v1/messages/conversations", authed(lister.access_token)));
    expect(JSON.stringify(conversations)).toContain("Room in the Village");
    for (const body of [favorites, started, conversations, listerSide]) expect(hasFull(body)).toBe(false);
  });

  it("the server-rendered page, its JSON block and its link-preview tags carry only the public form", async () => {
    for (const token of [null, student.access_token]) {
      const res = await api("/listing/a01", token ? authed(token) : {});
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain(PUBLIC);
      expect(html).not.toContain("177 Bleecker");
      expect(html).not.toContain("Apt 4B");
    }
  });

  it("the owner reads it whole, with the public form beside it; staff read it whole", async () => {
    const mine = await json<{ data: Record<string, unknown> }>(await api("/api/v1/subleases/a01", authed(lister.access_token)));
    expect(mine.data).toMatchObject({ address: FULL, address_public: PUBLIC });
    // The owner's answer is never the one the edge cache gives a visitor next.
    expect((await json<{ data: { address: string } }>(await api("/api/v1/subleases/a01"))).data.address).toBe(PUBLIC);
    const own = await json<{ data: Record<string, unknown>[] }>(await api("/api/v1/users/listings", authed(lister.access_token)));
    expect(own.data.find((l) => l.id === "a01")).toMatchObject({ address: FULL, address_public: PUBLIC });
    const staff = await json<{ listings: Record<string, unknown>[] }>(await api("/api/v1/admin/listings", authed(adminToken)));
    expect(staff.listings.find((l) => l.id === "a01")).toMatchObject({ address: FULL, location: FULL, address_public: PUBLIC });
    // A student's token is not staff's.
    expect((await api("/api/v1/admin/listings", authed(student.access_token))).status).toBe(401);
  });

  it("search matches the street and area, never the house number or the unit", async () => {
    expect((await search("bleecker")).map((l) => l.id)).toEqual(["a01"]);
    expect((await search("bleecker 10003")).map((l) => l.id)).toEqual(["a01"]);
    for (const q of ["177", "177 bleecker", "4B", "Apt 4B", '"177 Bleecker"']) expect(await search(q), q).toEqual([]);
  });

  it("an edit of the address stores its new public form, and search follows it", async () => {
    await insertListing(lister.user.id, "a02", { address: "12 Carmine St, New York, NY 10014", approved_rent: 800 });
    const res = await api(
      "/api/v1/subleases/a02",
      authed(lister.access_token, { method: "PATCH", body: JSON.stringify({ address: "88-90 Christopher St #3R, New York, NY 10014" }) }),
    );
    expect(res.status).toBe(200);
    expect((await json<{ data: Record<string, unknown> }>(res)).data).toMatchObject({
      address: "88-90 Christopher St #3R, New York, NY 10014",
      address_public: "Christopher St, New York, NY 10014",
    });
    await approve("a02");
    expect((await search("christopher")).map((l) => l.address)).toEqual(["Christopher St, New York, NY 10014"]);
    expect(await search("carmine")).toEqual([]);
    expect(await search("3R")).toEqual([]);
    expect(await search("88")).toEqual([]);
    // A title-only edit leaves it as it was.
    await api("/api/v1/subleases/a02", authed(lister.access_token, { method: "PATCH", body: JSON.stringify({ title: "Christopher St room" }) }));
    const row = await env.DB.prepare("SELECT address_public FROM listings WHERE id = 'a02'").first<{ address_public: string }>();
    expect(row?.address_public).toBe("Christopher St, New York, NY 10014");
  });

  it("a listing saved before public addresses existed reads the public form at once and is backfilled by the cron", async () => {
    await insertListing(lister.user.id, "a03", { address: "3401 Walnut St, Suite 200, Philadelphia, PA 19104", address_public: null });
    const before = await json<{ data: Record<string, unknown> }>(await api("/api/v1/subleases/a03"));
    expect(before.data.address).toBe("Walnut St, Philadelphia, PA 19104");
    // Not yet indexed by its address at all: nothing to confirm, and the street waits for the backfill.
    expect(await search("walnut")).toEqual([]);
    const run = await runHousekeeping(env);
    expect(run.publicAddresses).toBe(1);
    const row = await env.DB.prepare("SELECT address, address_public FROM listings WHERE id = 'a03'").first();
    expect(row).toEqual({ address: "3401 Walnut St, Suite 200, Philadelphia, PA 19104", address_public: "Walnut St, Philadelphia, PA 19104" });
    expect((await search("walnut")).map((l) => l.id)).toEqual(["a03"]);
    expect(await search("3401")).toEqual([]);
    // Rerunnable: nothing left to fill.
    expect((await runHousekeeping(env)).publicAddresses).toBe(0);
  });
});
