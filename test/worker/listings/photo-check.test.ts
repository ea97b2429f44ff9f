import { env } from "cloudflare:test";
import jpeg from "jpeg-js";
import { describe, expect, it } from "vitest";
import { createDb } from "../../../worker/db/client";
import { backfillPhotoHashes, hashListingPhotos, photoCheckPending, photoMatchesOf } from "../../../worker/services/photo-check";
import { api, authed, insertListing, json, PNG_1x1, post, signUp } from "../helpers";

/** A JPEG with structure (gradient, disc, stripes); `variant` changes the scene. */
function photo(variant: number, width = 640, height = 480, mirrored = false): Uint8Array {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x0 = 0; x0 < width; x0++) {
      const x = mirrored ? width - 1 - x0 : x0;
      const disc = (x - width * 0.25 * variant) ** 2 + (y - height * 0.45) ** 2 < (height * 0.2) ** 2 ? 110 : 0;
      const stripe = Math.floor((x * variant) / 37) % 3 === 0 ? -50 : 0;
      const v = Math.max(0, Math.min(255, (x / width) * 120 + (y / height) * 70 + disc + stripe));
      data.set([v, v, v, 255], (y * width + x0) * 4);
    }
  return new Uint8Array(jpeg.encode({ width, height, data }, 70).data);
}

let n = 0;
async function addPhoto(listingId: string, bytes: Uint8Array, postedAt: string) {
  const id = `ph-${++n}`;
  const key = `listings/${listingId}/${id}.jpg`;
  await env.IMAGES.put(key, bytes);
  await env.DB.prepare("INSERT INTO listing_photos (id, listing_id, key, position, created_at) VALUES (?, ?, ?, 0, ?)").bind(id, listingId, key, postedAt).run();
  return `/api/v1/images/${key}`;
}

describe("copied photos", () => {
  it("flags the later poster's copy (also mirrored or recompressed), never the earlier one, never the owner's own reuse", async () => {
    const db = createDb(env);
    const first = await signUp("photo-first@ufl.edu");
    const copier = await signUp("photo-copier@ufl.edu");
    await insertListing(first.user.id, "pc1");
    await insertListing(first.user.id, "pc2");
    await insertListing(copier.user.id, "pc3", { verification_status: "pending" });
    const original = await addPhoto("pc1", photo(1), "2026-11-01T00:00:00.000Z");
    await addPhoto("pc2", photo(1), "2026-11-02T00:00:00.000Z"); // the same owner reuses it: fine
    const copy = await addPhoto("pc3", photo(1, 640, 480, true), "2026-11-03T00:00:00.000Z");
    await addPhoto("pc3", photo(3), "2026-11-03T00:00:00.000Z"); // a different scene
    expect(await photoCheckPending(db, ["pc1", "pc3"])).toEqual(new Set(["pc1", "pc3"]));
    for (const id of ["pc1", "pc2", "pc3"]) await hashListingPhotos(db, env, id);
    expect(await photoCheckPending(db, ["pc1", "pc3"])).toEqual(new Set());

    expect(await photoMatchesOf(db, "pc3")).toEqual([
      { listing_id: "pc1", owner_id: first.user.id, picture: copy, matched_picture: original },
      { listing_id: "pc2", owner_id: first.user.id, picture: copy, matched_picture: expect.stringContaining("/api/v1/images/listings/pc2/") },
    ]);
    expect(await photoMatchesOf(db, "pc1")).toEqual([]);
    expect(await photoMatchesOf(db, "pc2")).toEqual([]);
  });

  it("does not compare tiny pictures or other types it cannot decode; the backfill is rerunnable", async () => {
    const db = createDb(env);
    const a = await signUp("photo-tiny-a@ufl.edu");
    const b = await signUp("photo-tiny-b@ufl.edu");
    await insertListing(a.user.id, "pc4");
    await insertListing(b.user.id, "pc5");
    await addPhoto("pc4", photo(2, 48, 48), "2026-11-01T00:00:00.000Z");
    await addPhoto("pc5", photo(2, 48, 48), "2026-11-02T00:00:00.000Z");
    await addPhoto("pc5", PNG_1x1, "2026-11-02T00:00:00.000Z");
    expect(await backfillPhotoHashes(db, env, 100)).toBeGreaterThanOrEqual(3);
    expect(await backfillPhotoHashes(db, env, 100)).toBe(0);
    const statuses = await env.DB.prepare("SELECT status FROM photo_hashes WHERE listing_id IN ('pc4','pc5') ORDER BY status").all<{ status: string }>();
    expect(statuses.results.map((r) => r.status)).toEqual(["tiny", "tiny", "unavailable"]);
    expect(await photoMatchesOf(db, "pc5")).toEqual([]);
  });
});

describe("staff's listing views", () => {
  it("carry photo_matches and photo_check_pending; a bad token is refused", async () => {
    const first = await signUp("photo-admin-a@ufl.edu");
    const copier = await signUp("photo-admin-b@ufl.edu");
    await insertListing(first.user.id, "pc6");
    await insertListing(copier.user.id, "pc7", { verification_status: "pending" });
    const original = await addPhoto("pc6", photo(2), "2026-11-01T00:00:00.000Z");
    const copy = await addPhoto("pc7", photo(2), "2026-11-05T00:00:00.000Z");
    const { token } = await json<{ token: string }>(await post("/api/v1/admin/login", { password: env.ADMIN_PASSWORD }));
    const read = async () =>
      (await json<{ listings: { id: string; photo_matches: unknown[]; photo_check_pending: boolean }[] }>(await api("/api/v1/admin/listings/pending", authed(token)))).listings.find((l) => l.id === "pc7")!;
    expect(await read()).toMatchObject({ photo_matches: [], photo_check_pending: true });
    const db = createDb(env);
    await hashListingPhotos(db, env, "pc6");
    await hashListingPhotos(db, env, "pc7");
    const after = await read();
    expect(after.photo_check_pending).toBe(false);
    // (Other tests' synthetic scenes may match too: they share one gradient.)
    expect(after.photo_matches).toContainEqual({ listing_id: "pc6", owner_id: first.user.id, picture: copy, matched_picture: original });
    expect(after.photo_matches.every((m) => (m as { owner_id: string }).owner_id !== copier.user.id)).toBe(true);
    expect((await api("/api/v1/admin/listings/pending", authed("not-a-token"))).status).toBe(401);
  });
});
