import { env } from "cloudflare:test";
import jpeg from "jpeg-js";
import { describe, expect, it, vi } from "vitest";
import { createDb } from "../../../worker/db/client";
import { hashListingPhotos, withPhotoCheck } from "../../../worker/services/photo-check";
import { addListingPhoto as addPhoto, flatJpeg, insertListing, sceneCrop, scenePhoto as photo, signUp } from "../helpers";

/** The check staff read for one listing. */
const checkOf = async (id: string) => (await withPhotoCheck(createDb(env), [{ id }]))[0]!;
const matchesOf = async (id: string) => (await checkOf(id)).photo_matches;
const listingRow = (id: string) => env.DB.prepare("SELECT verification_status, review_reason FROM listings WHERE id = ?").bind(id).first<{ verification_status: string; review_reason: string | null }>();
const cropped = (variant: number, f: number) => sceneCrop(variant, { left: f, top: f, right: f, bottom: f });

describe("the earliest poster, a photo's file, and decodes that die (docs/decisions/036)", () => {
  it("the earliest poster of a picture wins whatever the hashing order: relisting one's own photo after a copier is never flagged", async () => {
    const owner = await signUp("photo-early-owner@ufl.edu");
    const copier = await signUp("photo-early-copier@ufl.edu");
    await insertListing(owner.user.id, "pe1");
    await insertListing(copier.user.id, "pe2");
    await insertListing(owner.user.id, "pe3", { verification_status: "approved" });
    const original = await addPhoto("pe1", photo(1), "2026-10-01T00:00:00.000Z");
    const copy = await addPhoto("pe2", cropped(1, 0.1), "2026-10-05T00:00:00.000Z");
    // The owner relists the picture (recompressed: other bytes) after the copier did.
    await addPhoto("pe3", new Uint8Array(jpeg.encode(jpeg.decode(photo(1), { useTArray: true }), 60).data), "2026-10-09T00:00:00.000Z");
    const db = createDb(env);
    // The order that once flagged the owner: the copy and the relisting hashed before the original.
    for (const id of ["pe2", "pe3", "pe1"]) await hashListingPhotos(db, env, id);
    const copierCheck = await checkOf("pe2");
    expect(copierCheck.photo_matches.map((m) => [m.picture, m.matched_picture, m.owner_id])).toEqual(expect.arrayContaining([[copy, original, owner.user.id]]));
    expect(copierCheck.review_reason).toBe("Photos match another listing");
    // The relisting matched the copy while the original was unhashed; that match went when the copy was found to be the copy.
    expect(await matchesOf("pe3")).toEqual([]);
    expect((await listingRow("pe3"))!.review_reason).toBeNull();
    expect(await matchesOf("pe1")).toEqual([]);
    // And once known, a later relisting is never flagged against the copy at all.
    await insertListing(owner.user.id, "pe4");
    await addPhoto("pe4", new Uint8Array(jpeg.encode(jpeg.decode(photo(1), { useTArray: true }), 50).data), "2026-10-12T00:00:00.000Z");
    await hashListingPhotos(db, env, "pe4");
    expect(await matchesOf("pe4")).toEqual([]);
    expect((await listingRow("pe4"))!.review_reason).toBeNull();
  });

  it("the same stored file on another listing is read and decoded once: its hashes and its matches are copied", async () => {
    const owner = await signUp("photo-file-owner@ufl.edu");
    const copier = await signUp("photo-file-copier@ufl.edu");
    await insertListing(owner.user.id, "pf1");
    await insertListing(copier.user.id, "pf2");
    await insertListing(copier.user.id, "pf3");
    await addPhoto("pf1", photo(3), "2026-09-01T00:00:00.000Z");
    const copy = await addPhoto("pf2", photo(3, 640, 480, true), "2026-09-02T00:00:00.000Z");
    const key = copy.replace("/api/v1/images/", "");
    // The copier's second listing shows the very same stored file (as an edit re-saves a listing's photos).
    await env.DB.prepare("INSERT INTO listing_photos (id, listing_id, key, position, created_at) VALUES ('pf3-photo', 'pf3', ?, 0, '2026-09-03T00:00:00.000Z')").bind(key).run();
    const db = createDb(env);
    await hashListingPhotos(db, env, "pf1");
    await hashListingPhotos(db, env, "pf2");
    const reads = vi.spyOn(env.IMAGES, "get");
    await hashListingPhotos(db, env, "pf3");
    expect(reads).not.toHaveBeenCalled();
    reads.mockRestore();
    const rows = await env.DB.prepare("SELECT photo_id, status, phash, phash_windows FROM photo_hashes WHERE picture = ? ORDER BY photo_id").bind(key).all<{ photo_id: string; status: string; phash: string; phash_windows: string }>();
    expect(rows.results).toHaveLength(2);
    expect(rows.results[0]).toMatchObject({ status: "hashed", phash: rows.results[1]!.phash, phash_windows: rows.results[1]!.phash_windows });
    const windows = await env.DB.prepare("SELECT count(*) AS n FROM photo_window_bands WHERE photo_id = 'pf3-photo'").first<{ n: number }>();
    expect(windows!.n).toBe(8);
    expect((await matchesOf("pf3")).map((m) => [m.picture, m.listing_id])).toEqual([[copy, "pf1"]]);
    expect((await listingRow("pf3"))!.review_reason).toBe("Photos match another listing");
  });

  it("a photo over 25 megapixels (stored before the limit) is too large: never decoded, not compared, still matched by its bytes", async () => {
    const a = await signUp("photo-huge-a@ufl.edu");
    const b = await signUp("photo-huge-b@ufl.edu");
    await insertListing(a.user.id, "ph1");
    await insertListing(b.user.id, "ph2");
    const huge = flatJpeg(7000, 5000);
    await addPhoto("ph1", huge, "2026-08-01T00:00:00.000Z");
    const same = await addPhoto("ph2", huge, "2026-08-02T00:00:00.000Z");
    const db = createDb(env);
    await hashListingPhotos(db, env, "ph1");
    await hashListingPhotos(db, env, "ph2");
    const statuses = await env.DB.prepare("SELECT status, claim FROM photo_hashes WHERE listing_id IN ('ph1', 'ph2')").all();
    expect(statuses.results).toEqual([
      { status: "too_large", claim: null },
      { status: "too_large", claim: null },
    ]);
    const check = await checkOf("ph2");
    expect(check.photos_not_compared).toEqual([same]);
    expect(check.photo_check_pending).toBe(false);
    expect(check.photo_matches.map((m) => m.listing_id)).toEqual(["ph1"]);
  });

  it("a decode that took its invocation down is never tried again: the message's next attempt marks the photo not compared; another message's fresh claim is left alone", async () => {
    const owner = await signUp("photo-died@ufl.edu");
    await insertListing(owner.user.id, "pd1");
    const died = await addPhoto("pd1", photo(2), "2026-08-01T00:00:00.000Z");
    const busy = await addPhoto("pd1", flatJpeg(640, 480), "2026-08-01T00:00:00.000Z");
    const claim = (url: string, by: string) =>
      env.DB.prepare("INSERT INTO photo_hashes (photo_id, listing_id, owner_id, picture, status, claim, posted_at) SELECT id, listing_id, ?, key, 'decoding', ?, created_at FROM listing_photos WHERE key = ?")
        .bind(owner.user.id, by, url.replace("/api/v1/images/", ""))
        .run();
    // An earlier attempt of message m-1 claimed the first photo and died in its decode; m-2 is decoding the second now.
    await claim(died, "m-1");
    await claim(busy, "m-2");
    expect((await checkOf("pd1")).photo_check_pending).toBe(true);
    const reads = vi.spyOn(env.IMAGES, "get");
    await hashListingPhotos(createDb(env), env, "pd1", "m-1");
    expect(reads).not.toHaveBeenCalled();
    reads.mockRestore();
    const statuses = await env.DB.prepare("SELECT picture, status, claim FROM photo_hashes WHERE listing_id = 'pd1' ORDER BY status").all<{ picture: string; status: string; claim: string | null }>();
    expect(statuses.results.map((r) => [r.status, r.claim])).toEqual([
      ["decoding", "m-2"],
      ["undecoded", null],
    ]);
    const check = await checkOf("pd1");
    expect(check.photos_not_compared).toEqual([died]);
    expect(check.photo_check_pending).toBe(true);
    // Fifteen minutes on, m-2's claim is stale too (its invocation cannot still be running).
    await hashListingPhotos(createDb(env), env, "pd1", "m-3", Date.now() + 16 * 60_000);
    expect((await checkOf("pd1")).photo_check_pending).toBe(false);
  });
});
