/// <reference types="vite/client" />
import { env } from "cloudflare:test";
import jpeg from "jpeg-js";
import { encode as encodePng } from "fast-png";
import { describe, expect, it, vi } from "vitest";
import { createDb } from "../../../worker/db/client";
import { backfillPhotoHashes, hashListingPhotos, matchPhoto, PHOTO_MATCH_BITS, photoDistance, WINDOW_MATCH_BITS, windowDistance, withPhotoCheck } from "../../../worker/services/photo-check";
import { seedDemoData } from "../../../worker/db/seed/seed";
import type { PhotoHashRow } from "../../../worker/db/queries/photo-hashes";
import { bandsOf } from "../../../worker/lib/photo-hash";
import { photoHashes as photoHashesTable, photoWindowBands as photoWindowBandsTable } from "../../../worker/db/schema";
import { addListingPhoto, adminLogin, api, authed, dataUrl, deliveries, drainQueues, insertListing, json, PNG_1x1, post, queued, sceneCrop, scenePhoto, signUp } from "../helpers";

const photo = scenePhoto;
const addPhoto = addListingPhoto;
const croppedSides = sceneCrop;

/** The check staff read for one listing. */
const checkOf = async (id: string) => (await withPhotoCheck(createDb(env), [{ id }]))[0]!;
const matchesOf = async (id: string) => (await checkOf(id)).photo_matches;
const listingRow = (id: string) => env.DB.prepare("SELECT verification_status, review_reason FROM listings WHERE id = ?").bind(id).first<{ verification_status: string; review_reason: string | null }>();

/** A copy cropped by `f` of each side (the copier's crop). */
const cropped = (variant: number, f: number) => croppedSides(variant, { left: f, top: f, right: f, bottom: f });

describe("copied photos", () => {
  // First in the file: the seed fills only an empty database (this file's tests share one).
  it("the demo seed's listings flag nothing: each demo owner has photos of their own", async () => {
    const files = import.meta.glob<string>("../../../scripts/demo-photos/*.jpg", { query: "?inline", import: "default", eager: true });
    const photos = Object.entries(files).map(([path, url]) => ({ name: path.split("/").at(-1)!, data: url.slice(url.indexOf(",") + 1) }));
    expect(photos.filter((p) => !p.name.includes(".thumb.")).length).toBeGreaterThanOrEqual(30);
    // The seed queues its listings' checks like any upload; each stored demo photo is read (and decoded) once.
    const reads = vi.spyOn(env.IMAGES, "get");
    const seeded = await seedDemoData(env, photos);
    expect(seeded.seeded).toBe(true);
    expect(queued().filter((m) => (m.body as { type: string }).type === "photo-check")).toHaveLength(seeded.listings);
    await drainQueues();
    const keys = reads.mock.calls.map(([key]) => key as string);
    reads.mockRestore();
    const used = await env.DB.prepare("SELECT count(*) AS n, count(DISTINCT key) AS files FROM listing_photos").first<{ n: number; files: number }>();
    expect(used!.n).toBeGreaterThan(used!.files);
    expect(keys).toHaveLength(used!.files);
    expect(new Set(keys).size).toBe(used!.files);
    const rows = await env.DB.prepare("SELECT count(*) AS n, count(DISTINCT picture) AS pictures FROM photo_hashes WHERE status = 'hashed'").first<{ n: number; pictures: number }>();
    expect(rows).toEqual({ n: used!.n, pictures: used!.files });
    expect(await backfillPhotoHashes(createDb(env), env, 200)).toBe(0);
    const flagged = await env.DB.prepare("SELECT count(*) AS n FROM photo_matches m JOIN photo_hashes h ON h.photo_id = m.photo_id JOIN users u ON u.id = h.owner_id WHERE u.email LIKE '%@campusnest.dev'").first<{ n: number }>();
    expect(flagged!.n).toBe(0);
  }, 120_000);
  it("a stranger's copy of a seeded demo photo is caught: the demo photos were hashed like any upload", async () => {
    const files = import.meta.glob<string>("../../../scripts/demo-photos/*.jpg", { query: "?inline", import: "default", eager: true });
    const [, url] = Object.entries(files).find(([path]) => !path.includes(".thumb."))!;
    const bytes = Uint8Array.from(atob(url.slice(url.indexOf(",") + 1)), (c) => c.charCodeAt(0));
    const copier = await signUp("demo-copier@ufl.edu");
    await insertListing(copier.user.id, "demo-copy");
    await addPhoto("demo-copy", bytes, new Date(Date.now() + 86_400_000).toISOString());
    await hashListingPhotos(createDb(env), env, "demo-copy");
    await drainQueues();
    const check = await checkOf("demo-copy");
    expect(check.review_reason).toBe("Photos match another listing");
    expect(check.photo_matches.length).toBeGreaterThan(0);
    const owners = await env.DB.prepare(`SELECT DISTINCT email FROM users WHERE id IN (${check.photo_matches.map(() => "?").join(",")})`)
      .bind(...check.photo_matches.map((m) => m.owner_id))
      .all<{ email: string }>();
    expect(owners.results.every((u) => u.email.endsWith("@campusnest.dev"))).toBe(true);
  });
  it("flags the later poster's copy (mirrored, cropped 10 % a side) and sends it to review; never the earlier one, never the owner's own reuse", async () => {
    const first = await signUp("photo-first@ufl.edu");
    const copier = await signUp("photo-copier@ufl.edu");
    await insertListing(first.user.id, "pc1");
    await insertListing(first.user.id, "pc2");
    await insertListing(copier.user.id, "pc3", { verification_status: "approved" });
    const original = await addPhoto("pc1", photo(1), "2026-11-01T00:00:00.000Z");
    await addPhoto("pc2", photo(1), "2026-11-02T00:00:00.000Z"); // the same owner reuses it: fine
    const mirrored = await addPhoto("pc3", photo(1, 640, 480, true), "2026-11-03T00:00:00.000Z");
    const crop = await addPhoto("pc3", cropped(1, 0.1), "2026-11-03T00:00:00.000Z");
    await addPhoto("pc3", photo(3), "2026-11-03T00:00:00.000Z"); // a different scene
    expect((await checkOf("pc3")).photo_check_pending).toBe(true);
    // The copier's photos hashed first: the match is still the copier's, found when the original is hashed.
    const db = createDb(env);
    for (const id of ["pc3", "pc1", "pc2"]) await hashListingPhotos(db, env, id);
    // The notices it sent are on the notices queue: delivered before the mailbox is read.
    await drainQueues();

    const check = await checkOf("pc3");
    expect(check.photo_check_pending).toBe(false);
    expect(check.review_reason).toBe("Photos match another listing");
    const pairs = check.photo_matches.map((m) => [m.picture, m.matched_picture, m.listing_id, m.owner_id]);
    expect(pairs).toContainEqual([mirrored, original, "pc1", first.user.id]);
    expect(pairs).toContainEqual([crop, original, "pc1", first.user.id]);
    expect(check.photo_matches.every((m) => m.owner_id === first.user.id && m.matched_posted_at < m.posted_at)).toBe(true);
    expect(await listingRow("pc3")).toEqual({ verification_status: "pending", review_reason: "Photos match another listing" });
    expect(await matchesOf("pc1")).toEqual([]);
    expect(await matchesOf("pc2")).toEqual([]);
    expect((await listingRow("pc1"))!.review_reason).toBeNull();

    // The copier is told why, once (two pictures matched), without the other listing or its owner; the first poster hears nothing.
    const mailOf = async (to: string) => (await json<{ data: { subject: string; text: string }[] }>(await api(`/api/v1/dev/emails?to=${encodeURIComponent(to)}`))).data;
    const notices = (await mailOf("photo-copier@ufl.edu")).filter((m) => m.subject === 'Your listing "Listing pc3" is back in review');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toContain("Photos match another listing: staff will check them.");
    expect(notices[0]!.text).not.toMatch(/pc1|Listing pc1|photo-first/);
    expect((await mailOf("photo-first@ufl.edu")).some((m) => m.subject.includes("back in review"))).toBe(false);
    // And reads the reason on their own listing; the first poster's carries none.
    const own = async (token: string) => (await json<{ data: { id: string; review_reason: string | null }[] }>(await api("/api/v1/users/listings", authed(token)))).data;
    expect((await own(copier.access_token)).find((l) => l.id === "pc3")!.review_reason).toBe("Photos match another listing");
    expect((await own(first.access_token)).map((l) => l.review_reason)).toEqual([null, null]);

    // The copier takes the copies off: the reason clears at the next check.
    await env.DB.prepare("DELETE FROM listing_photos WHERE listing_id = 'pc3' AND key != ?").bind(crop.replace("/api/v1/images/", "")).run();
    await hashListingPhotos(db, env, "pc3");
    expect((await listingRow("pc3"))!.review_reason).toBe("Photos match another listing");
    await env.DB.prepare("DELETE FROM listing_photos WHERE listing_id = 'pc3'").run();
    await hashListingPhotos(db, env, "pc3");
    expect((await listingRow("pc3"))!.review_reason).toBeNull();
  });

  it("a copy cropped 10 % off one side, or off two adjacent sides, matches the original's window; in either hashing order", async () => {
    const first = await signUp("photo-window-first@ufl.edu");
    const copier = await signUp("photo-window-copier@ufl.edu");
    await insertListing(first.user.id, "pw1");
    await insertListing(copier.user.id, "pw2");
    const original = await addPhoto("pw1", photo(2), "2026-11-05T00:00:00.000Z");
    const offLeft = await addPhoto("pw2", croppedSides(2, { left: 0.1 }), "2026-11-06T00:00:00.000Z");
    const offTopRight = await addPhoto("pw2", croppedSides(2, { top: 0.1, right: 0.1 }), "2026-11-06T00:00:00.000Z");
    const db = createDb(env);
    // Neither is the original's picture or centre: the whole-picture rule alone misses them.
    await hashListingPhotos(db, env, "pw2");
    await hashListingPhotos(db, env, "pw1");
    const hashesOf = async (url: string) => {
      const r = (await env.DB.prepare("SELECT * FROM photo_hashes WHERE picture = ?").bind(url.replace("/api/v1/images/", "")).first<Record<string, string>>())!;
      return { phash: r.phash!, phashMirror: r.phash_mirror!, phashCentre: r.phash_centre!, phashCentreMirror: r.phash_centre_mirror!, phashWindows: r.phash_windows! };
    };
    const [orig, left, topRight] = await Promise.all([original, offLeft, offTopRight].map(hashesOf));
    expect(photoDistance(left!, orig!)).toBeGreaterThan(PHOTO_MATCH_BITS);
    expect(photoDistance(topRight!, orig!)).toBeGreaterThan(PHOTO_MATCH_BITS);
    expect(windowDistance(left!, orig!)).toBeLessThanOrEqual(WINDOW_MATCH_BITS);
    const check = await checkOf("pw2");
    expect(check.photo_matches.map((m) => [m.picture, m.matched_picture, m.listing_id])).toEqual(
      expect.arrayContaining([
        [offLeft, original, "pw1"],
        [offTopRight, original, "pw1"],
      ]),
    );
    expect(check.review_reason).toBe("Photos match another listing");
    expect(await matchesOf("pw1")).toEqual([]);
    // The other order: the original hashed first, a crop off the bottom posted and hashed later.
    const third = await signUp("photo-window-third@ufl.edu");
    await insertListing(third.user.id, "pw3");
    const offBottom = await addPhoto("pw3", croppedSides(2, { bottom: 0.1 }), "2026-11-07T00:00:00.000Z");
    await hashListingPhotos(db, env, "pw3");
    expect((await matchesOf("pw3")).map((m) => [m.picture, m.matched_picture, m.listing_id])).toContainEqual([offBottom, original, "pw1"]);
  });

  it("the window index finds a picture exactly WINDOW_MATCH_BITS from another's window, spread over all three bands, and not one bit past it", async () => {
    const db = createDb(env);
    const base = "3c3c3c3c3c3c3c3c";
    const far = "c3c3c3c3c3c3c3c3"; // every bit flipped: 64 from base and its neighbours
    const flip = (hash: string, bits: number[]) => (BigInt(`0x${hash}`) ^ bits.reduce((m, b) => m | (1n << BigInt(b)), 0n)).toString(16).padStart(16, "0");
    const row = (id: string, owner: string, phash: string, windows: string[] | null, postedAt: string): PhotoHashRow => {
      const [p0, p1, p2] = bandsOf(phash);
      return { photoId: id, listingId: `l-${id}`, ownerId: owner, picture: `listings/${id}.jpg`, status: "hashed", sha256: id, phash, phashMirror: null, phashCentre: null, phashCentreMirror: null, dhash: null, dhashMirror: null, phashWindows: windows ? JSON.stringify(windows) : null, p0, p1, p2, c0: null, c1: null, c2: null, postedAt, goneAt: null, claim: null, createdAt: postedAt };
    };
    // The stored photo's third window is `base`; its picture and other windows are far from everything here.
    const windows = Array.from({ length: 16 }, (_, i) => (i === 3 ? base : far));
    await db.insert(photoHashesTable).values(row("win-a", "owner-wa", far, windows, "2026-10-01T00:00:00.000Z"));
    await db.insert(photoWindowBandsTable).values(windows.slice(0, 8).map((h, window) => { const [b0, b1, b2] = bandsOf(h); return { photoId: "win-a", window, b0, b1, b2 }; }));
    // WINDOW_MATCH_BITS (7) flipped 2, 2, 3 over the bands: only a lookup within floor(7 / 3) = 2 bits a band finds it.
    const atThreshold = row("win-b", "owner-wb", flip(base, [0, 1, 21, 22, 42, 43, 44]), null, "2026-10-02T00:00:00.000Z");
    // The same owner as win-b, so the two do not meet each other.
    const pastIt = row("win-c", "owner-wb", flip(base, [0, 1, 21, 22, 42, 43, 44, 45]), null, "2026-10-02T00:00:00.000Z");
    expect(WINDOW_MATCH_BITS).toBe(7);
    await db.insert(photoHashesTable).values([atThreshold, pastIt]);
    await matchPhoto(db, atThreshold);
    await matchPhoto(db, pastIt);
    const stored = await env.DB.prepare("SELECT photo_id, matched_photo_id, distance FROM photo_matches WHERE photo_id LIKE 'win-%'").all();
    expect(stored.results).toEqual([{ photo_id: "win-b", matched_photo_id: "win-a", distance: WINDOW_MATCH_BITS }]);
  });

  it("the index finds a pair exactly at the threshold, spread over all three bands, and not one bit past it", async () => {
    const db = createDb(env);
    const base = "a5a5a5a5a5a5a5a5";
    // PHOTO_MATCH_BITS flipped bits spread 3, 3, 4 over the three bands (bits 0-20, 21-41, 42-63): every
    // band differs by the lookup's full radius, so only a pigeonhole-correct lookup finds the pair.
    const flip = (hash: string, bits: number[]) => (BigInt(`0x${hash}`) ^ bits.reduce((m, b) => m | (1n << BigInt(b)), 0n)).toString(16).padStart(16, "0");
    const spread = [0, 1, 2, 21, 22, 23, 42, 43, 44, 45];
    expect(spread).toHaveLength(PHOTO_MATCH_BITS);
    const row = (id: string, owner: string, phash: string, postedAt: string): PhotoHashRow => {
      const [p0, p1, p2] = bandsOf(phash);
      // Only the picture's own pHash: no mirror or centre to meet another row's.
      return { photoId: id, listingId: `l-${id}`, ownerId: owner, picture: `listings/${id}.jpg`, status: "hashed", sha256: id, phash, phashMirror: null, phashCentre: null, phashCentreMirror: null, dhash: null, dhashMirror: null, phashWindows: null, p0, p1, p2, c0: null, c1: null, c2: null, postedAt, goneAt: null, claim: null, createdAt: postedAt };
    };
    const put = (r: PhotoHashRow) => db.insert(photoHashesTable).values(r);
    await put(row("band-a", "owner-a", base, "2026-10-01T00:00:00.000Z"));
    const atThreshold = row("band-b", "owner-b", flip(base, spread), "2026-10-02T00:00:00.000Z");
    // Eleven bits from the first photo (and 21 from the second).
    const pastIt = row("band-c", "owner-c", flip(base, [3, 4, 5, 6, 24, 25, 26, 27, 46, 47, 48]), "2026-10-03T00:00:00.000Z");
    await put(atThreshold);
    await put(pastIt);
    await matchPhoto(db, atThreshold);
    await matchPhoto(db, pastIt);
    const stored = await env.DB.prepare("SELECT photo_id, matched_photo_id, distance FROM photo_matches WHERE photo_id LIKE 'band-%'").all();
    expect(stored.results).toEqual([{ photo_id: "band-b", matched_photo_id: "band-a", distance: PHOTO_MATCH_BITS }]);
  });

  it("compares JPEG and PNG; tiny, single-colour and undecoded (WebP) pictures are not compared and staff see which; the backfill is rerunnable", async () => {
    const db = createDb(env);
    const a = await signUp("photo-tiny-a@ufl.edu");
    const b = await signUp("photo-tiny-b@ufl.edu");
    await insertListing(a.user.id, "pc4");
    await insertListing(b.user.id, "pc5");
    const flat = new Uint8Array(jpeg.encode({ width: 200, height: 200, data: Buffer.alloc(200 * 200 * 4, 128) }, 80).data);
    const png = (variant: number) => {
      const rgba = jpeg.decode(photo(variant), { useTArray: true });
      return encodePng({ width: 640, height: 480, data: rgba.data, channels: 4 });
    };
    const original = await addPhoto("pc4", png(4), "2026-11-01T00:00:00.000Z");
    await addPhoto("pc4", photo(2, 48, 48), "2026-11-01T00:00:00.000Z");
    const pngCopy = await addPhoto("pc5", png(4), "2026-11-02T00:00:00.000Z");
    await addPhoto("pc5", flat, "2026-11-02T00:00:00.000Z");
    await addPhoto("pc5", PNG_1x1, "2026-11-02T00:00:00.000Z");
    const webpBytes = new TextEncoder().encode("RIFF\u0000\u0000\u0000\u0000WEBPVP8 ");
    const webpFirst = await addPhoto("pc4", webpBytes, "2026-11-01T00:00:00.000Z");
    const webp = await addPhoto("pc5", webpBytes, "2026-11-02T00:00:00.000Z");
    // The backfill queues the listings' checks (the queue's consumer hashes them); once done it queues none.
    expect(await backfillPhotoHashes(db, env, 100)).toBeGreaterThanOrEqual(2);
    await drainQueues();
    expect(await backfillPhotoHashes(db, env, 100)).toBe(0);
    const statuses = await env.DB.prepare("SELECT status FROM photo_hashes WHERE listing_id IN ('pc4','pc5') ORDER BY status").all<{ status: string }>();
    expect(statuses.results.map((r) => r.status)).toEqual(["flat", "hashed", "hashed", "tiny", "tiny", "undecoded", "undecoded"]);
    const check = await checkOf("pc5");
    // The WebP is not compared as a picture, but the same bytes are still a copy.
    expect(check.photo_matches.map((m) => [m.picture, m.matched_picture])).toEqual(expect.arrayContaining([[pngCopy, original], [webp, webpFirst]]));
    expect(check.photo_matches).toHaveLength(2);
    expect(check.photos_not_compared).toEqual([webp]);
    // Rerun after a listing is gone: its rows stay (first posted) until a year later.
    await env.DB.prepare("DELETE FROM listings WHERE id = 'pc4'").run();
    await backfillPhotoHashes(db, env, 100, Date.parse("2026-11-10T00:00:00.000Z"));
    expect((await env.DB.prepare("SELECT count(*) AS n FROM photo_hashes WHERE listing_id = 'pc4'").first<{ n: number }>())!.n).toBe(3);
    await backfillPhotoHashes(db, env, 100, Date.parse("2027-11-11T00:00:00.000Z"));
    expect((await env.DB.prepare("SELECT count(*) AS n FROM photo_hashes WHERE listing_id = 'pc4'").first<{ n: number }>())!.n).toBe(0);
    expect(await matchesOf("pc5")).toEqual([]);
  });

});

describe("staff's copied-photo check", () => {
  it("through the API: a new listing's photos are checked by the photos queue's consumer after the answer, so staff see the match without the cron", async () => {
    const first = await signUp("photo-api-a@ufl.edu");
    const copier = await signUp("photo-api-b@ufl.edu");
    await env.DB.prepare("UPDATE users SET id_verification_status = 'verified' WHERE id IN (?, ?)").bind(first.user.id, copier.user.id).run();
    const upload = async (s: typeof first, bytes: Uint8Array) => {
      const res = await api(
        "/api/v1/upload/multiple-base64",
        authed(s.access_token, { method: "POST", body: JSON.stringify({ images: [{ filename: "room.jpg", content_type: "image/jpeg", image_data: dataUrl(bytes) }] }) }),
      );
      return (await json<{ uploaded_files: { url: string }[] }>(res)).uploaded_files[0]!.url;
    };
    const create = async (s: typeof first, picture: string) => {
      const body = { title: "Room near campus", description: "A bright room", unit_type: "2x2", monthly_rent: 850, address: "12 Oak St, Gainesville, FL", lease_term: "spring", university_id: 3, parking: "false", allow_pets: "false", gender_preference: "no_preference", pictures: [picture] };
      const res = await api("/api/v1/subleases/", authed(s.access_token, { method: "POST", body: JSON.stringify(body) }));
      expect(res.status).toBe(201);
      return (await json<{ id: string }>(res)).id;
    };
    const original = await upload(first, photo(7));
    const firstId = await create(first, original);
    const copy = await upload(copier, croppedSides(7, { left: 0.1 }));
    const copyId = await create(copier, copy);
    // No backfill ran: the create queued its listing's check, and the photos queue's consumer ran it (once).
    expect(deliveries.filter((d) => d.queue === "campusnest-photos" && (d.body as { listingId?: string }).listingId === copyId).map((d) => d.outcome)).toEqual(["ack"]);
    const token = await adminLogin();
    const listed = (await json<{ listings: { id: string; photo_matches: Record<string, unknown>[]; photo_check_pending: boolean }[] }>(await api("/api/v1/admin/listings/pending", authed(token)))).listings;
    const flagged = listed.find((l) => l.id === copyId)!;
    expect(flagged.photo_check_pending).toBe(false);
    expect(flagged.photo_matches).toHaveLength(1);
    // The contract's four fields, plus the additions staff's panel reads.
    expect(Object.keys(flagged.photo_matches[0]!).sort()).toEqual(["listing_id", "matched_picture", "matched_posted_at", "owner_id", "owner_name", "picture", "posted_at"]);
    expect(flagged.photo_matches[0]).toMatchObject({ listing_id: firstId, owner_id: first.user.id, picture: copy, matched_picture: original });
    expect(listed.find((l) => l.id === firstId)!.photo_matches).toEqual([]);
  });

  it("lists carry photo_matches, photo_check_pending and the review reason; a bad token is refused", async () => {
    const first = await signUp("photo-admin-a@ufl.edu");
    const copier = await signUp("photo-admin-b@ufl.edu");
    await insertListing(first.user.id, "pc6");
    await insertListing(copier.user.id, "pc7", { verification_status: "pending" });
    const original = await addPhoto("pc6", photo(2), "2026-11-01T00:00:00.000Z");
    const copy = await addPhoto("pc7", photo(2), "2026-11-05T00:00:00.000Z");
    const token = await adminLogin();
    const read = async () =>
      (await json<{ listings: { id: string; photo_matches: { picture: string; matched_picture: string; owner_name: string | null }[]; photo_check_pending: boolean; review_reason: string | null }[] }>(await api("/api/v1/admin/listings/pending", authed(token)))).listings.find((l) => l.id === "pc7")!;
    expect(await read()).toMatchObject({ photo_matches: [], photo_check_pending: true, review_reason: null });
    const db = createDb(env);
    await hashListingPhotos(db, env, "pc6");
    await hashListingPhotos(db, env, "pc7");
    const after = await read();
    expect(after).toMatchObject({ photo_check_pending: false, review_reason: "Photos match another listing" });
    expect(after.photo_matches).toContainEqual(expect.objectContaining({ listing_id: "pc6", owner_id: first.user.id, owner_name: "Test User", picture: copy, matched_picture: original }));
    expect((await api("/api/v1/admin/listings/pending", authed("not-a-token"))).status).toBe(401);
  });

  it("staff mark a pair not a copy: it goes, the reason clears, the same pictures never flag again; only staff may", async () => {
    const first = await signUp("photo-kitchen-a@ufl.edu");
    const roommate = await signUp("photo-kitchen-b@ufl.edu");
    await insertListing(first.user.id, "pc8");
    await insertListing(roommate.user.id, "pc9", { verification_status: "pending" });
    await insertListing(roommate.user.id, "pc10", { verification_status: "pending" });
    const kitchen = await addPhoto("pc8", photo(5), "2026-11-01T00:00:00.000Z");
    const shared = await addPhoto("pc9", photo(5), "2026-11-02T00:00:00.000Z");
    const db = createDb(env);
    await hashListingPhotos(db, env, "pc8");
    await hashListingPhotos(db, env, "pc9");
    expect((await matchesOf("pc9")).length).toBe(1);
    const url = "/api/v1/admin/listings/pc9/photo-matches/not-a-copy";
    const body = { picture: shared, matched_picture: kitchen };
    expect((await post(url, body)).status).toBe(401);
    expect((await post(url, body, { authorization: `Bearer ${roommate.access_token}` })).status).toBe(401);
    const token = await adminLogin();
    const staff = { authorization: `Bearer ${token}` };
    const bad = await post(url, { picture: "" }, staff);
    expect(bad.status).toBe(422);
    expect((await json<{ detail: string }>(bad)).detail).toBeTruthy();
    const unknown = await post(url, { picture: shared, matched_picture: "/api/v1/images/listings/nope.jpg" }, staff);
    expect(unknown.status).toBe(404);
    expect((await json<{ detail: string }>(unknown)).detail).toBe("This listing has no such photo match.");

    expect((await post(url, body, staff)).status).toBe(200);
    expect(await matchesOf("pc9")).toEqual([]);
    expect((await listingRow("pc9"))!.review_reason).toBeNull();
    const audit = await env.DB.prepare("SELECT action FROM admin_audit WHERE target_id = 'pc9'").all<{ action: string }>();
    expect(audit.results.map((r) => r.action)).toContain("photo_not_a_copy");
    // The same kitchen photo on the roommate's next listing is not flagged again.
    await addPhoto("pc10", photo(5), "2026-11-03T00:00:00.000Z");
    await hashListingPhotos(db, env, "pc10");
    expect(await matchesOf("pc10")).toEqual([]);
  });
});
