/**
 * Private evidence (docs/decisions/032): photos of a problem or a statement are uploaded with POST
 * upload/evidence, checked like listing photos, and served only to the deal's parties, staff and their
 * uploader, never with a public cache header; listing photos and evidence never stand in for each other;
 * uploads no deal cites are deleted after a day; problem photos stored publicly before are moved (0039).
 */
import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { EVIDENCE, EVIDENCE_URL } from "../../../worker/contract/evidence";
import { createDb } from "../../../worker/db/client";
import { copyLegacyEvidence, deleteUncitedUploads } from "../../../worker/services/evidence";
import {
  adminLogin,
  api,
  authed,
  dataUrl,
  insertSignedDeal,
  JPEG_1x1,
  json,
  paySignedDeal,
  PDF,
  PNG_1x1,
  readyPayouts,
  signUp,
  uploadEvidence,
  type Session,
} from "../helpers";

let renter: Session;
let lister: Session;
let stranger: Session;
let admin: string;

beforeAll(async () => {
  [renter, lister, stranger] = await Promise.all([signUp("ev-renter@deals.test"), signUp("ev-lister@deals.test"), signUp("ev-stranger@deals.test")]);
  admin = await adminLogin();
  await readyPayouts(lister.user.id);
});

afterEach(() => {
  vi.useRealTimers();
});

const call = (token: string, path: string, method = "GET", body?: unknown) =>
  api(path, authed(token, { method, ...(body !== undefined && { body: JSON.stringify(body) }), headers: { "content-type": "application/json" } }));
const upload = (token: string, images: { filename: string; image_data: string }[]) =>
  call(token, "/api/v1/upload/evidence", "POST", { images: images.map((i) => ({ content_type: "image/jpeg", ...i })) });
const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());
const nameOf = (url: string) => url.replace("/api/v1/evidence/", "");

/** A paid deal whose renter reported a problem citing `photos`. */
async function reportedDeal(photos: string[]) {
  const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id);
  await paySignedDeal(renter.access_token, dealId);
  const res = await call(renter.access_token, `/api/v1/deals/${dealId}/problem`, "POST", { kind: "cant_get_in", text: "The lockbox code is wrong", photos });
  expect(res.status).toBe(200);
  return dealId;
}

describe("POST upload/evidence", () => {
  it("needs a signed-in user, answers private urls, and checks each file as listing photos are checked", async () => {
    expect((await api("/api/v1/upload/evidence", { method: "POST", body: JSON.stringify({ images: [] }) })).status).toBe(401);
    const exif = new TextEncoder().encode("Exif\0\0GPSLatitude 29.6516 N");
    const withExif = new Uint8Array([...JPEG_1x1.subarray(0, 2), 0xff, 0xe1, 0, exif.length + 2, ...exif, ...JPEG_1x1.subarray(2)]);
    const res = await upload(renter.access_token, [
      { filename: "door.jpg", image_data: dataUrl(withExif) },
      { filename: "lease.pdf", image_data: dataUrl(PDF) },
    ]);
    expect(res.status).toBe(200);
    const body = await json<{ uploaded_files: { url: string }[]; failed_files: { filename: string; error: string }[] }>(res);
    expect(body.uploaded_files).toHaveLength(1);
    expect(body.uploaded_files[0]!.url).toMatch(EVIDENCE_URL);
    expect(body.failed_files).toEqual([{ filename: "lease.pdf", error: "Only JPEG, PNG, WebP and GIF images are allowed" }]);
    // Stored privately and without its metadata; nothing under the public images.
    const stored = await env.ID_DOCUMENTS.get(`evidence/${nameOf(body.uploaded_files[0]!.url)}`);
    expect(new TextDecoder("latin1").decode(await stored!.arrayBuffer())).not.toContain("GPSLatitude");
    expect((await env.IMAGES.list({ prefix: "evidence" })).objects).toHaveLength(0);
    // The same limits: at most 10 images a request.
    const eleven = await upload(renter.access_token, Array.from({ length: 11 }, (_, i) => ({ filename: `p${i}.png`, image_data: dataUrl(PNG_1x1) })));
    expect(eleven.status).toBe(422);
  });

  it(`refuses more than ${EVIDENCE.photosPerUserPerDay} uploads a day (429 with retry_after), keeping none of the refused request`, async () => {
    const s = await signUp("ev-flood@deals.test");
    const recent = new Date(Date.now() - 3_600_000).toISOString();
    await env.DB.batch(
      Array.from({ length: EVIDENCE.photosPerUserPerDay - 1 }, (_, i) =>
        env.DB.prepare("INSERT INTO evidence_photos (name, uploader_id, content_type, created_at) VALUES (?, ?, 'image/png', ?)").bind(`flood${i}.png`, s.user.id, recent),
      ),
    );
    const res = await upload(s.access_token, [
      { filename: "last.png", image_data: dataUrl(PNG_1x1) },
      { filename: "over.png", image_data: dataUrl(PNG_1x1) },
    ]);
    expect(res.status).toBe(429);
    expect(await json(res)).toMatchObject({ retry_after: expect.any(Number), detail: expect.stringContaining("at most") });
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM evidence_photos WHERE uploader_id = ?").bind(s.user.id).first<{ n: number }>();
    expect(rows!.n).toBe(EVIDENCE.photosPerUserPerDay - 1);
  });
});

describe("GET evidence/{name}", () => {
  it("serves the uploader before it is cited, the parties and staff after, 404 to anyone else, never with a public cache header", async () => {
    const [url] = await uploadEvidence(renter);
    const mine = await call(renter.access_token, url!);
    expect(mine.status).toBe(200);
    expect(mine.headers.get("cache-control")).toBe("private, no-store");
    expect(mine.headers.get("content-type")).toBe("image/png");
    expect([...(await bytesOf(mine))]).toEqual([...PNG_1x1]);
    // Before a deal cites it, the other party does not see it either.
    expect((await call(lister.access_token, url!)).status).toBe(404);
    expect((await api(url!)).status).toBe(401);

    const dealId = await reportedDeal([url!]);
    for (const token of [lister.access_token, renter.access_token, admin]) {
      const res = await call(token, url!);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      await res.arrayBuffer();
    }
    const strangers = await call(stranger.access_token, url!);
    expect(strangers.status).toBe(404);
    expect(await json(strangers)).toEqual({ detail: "Photo not found" });
    // A party of another deal of the same people is no party of this one: the renter's other lister sees nothing.
    const otherLister = await signUp("ev-other-lister@deals.test");
    await insertSignedDeal(renter.user.id, otherLister.user.id);
    expect((await call(otherLister.access_token, url!)).status).toBe(404);
    // Staff's case shows the photo's url as sent.
    const view = await json<{ data: { statements: { photos: string[] }[] } }>(await call(admin, `/api/v1/admin/deals/${dealId}`));
    expect(view.data.statements[0]!.photos).toEqual([url]);
    // The public image route does not serve it under any name.
    expect((await api(`/api/v1/images/evidence/${nameOf(url!)}`)).status).toBe(404);
    expect((await api(`/api/v1/images/listings/${nameOf(url!)}`)).status).toBe(404);
    expect((await call(renter.access_token, "/api/v1/evidence/..%2Fdocuments%2Fx.png")).status).toBe(404);
  });
});

describe("listing photos and evidence never stand in for each other", () => {
  it("a problem refuses a listing photo, another person's evidence and an upload over a day old; a listing refuses an evidence url", async () => {
    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id);
    await paySignedDeal(renter.access_token, dealId);
    const listingPhoto = await call(renter.access_token, "/api/v1/upload/multiple-base64", "POST", { images: [{ filename: "room.png", content_type: "image/png", image_data: dataUrl(PNG_1x1) }] });
    const listingUrl = (await json<{ uploaded_files: { url: string }[] }>(listingPhoto)).uploaded_files[0]!.url;
    const problem = (photos: string[]) => call(renter.access_token, `/api/v1/deals/${dealId}/problem`, "POST", { kind: "other", text: "Broken window", photos });

    const asListing = await problem([listingUrl]);
    expect(asListing.status).toBe(422);
    expect(await json(asListing)).toMatchObject({ errors: [{ path: "photos.0", message: expect.stringContaining("listing photos cannot be used") }] });
    const [listersEvidence] = await uploadEvidence(lister);
    const notMine = await problem([listersEvidence!]);
    expect(notMine.status).toBe(422);
    expect(await json(notMine)).toMatchObject({ errors: [{ path: "photos", message: "Photos must be ones you uploaded as evidence" }] });
    const [old] = await uploadEvidence(renter);
    await env.DB.prepare("UPDATE evidence_photos SET created_at = ? WHERE name = ?").bind(new Date(Date.now() - EVIDENCE.attachWithinMs - 60_000).toISOString(), nameOf(old!)).run();
    const stale = await problem([old!]);
    expect(stale.status).toBe(422);
    expect(await json(stale)).toMatchObject({ errors: [{ path: "photos", message: expect.stringContaining("more than a day ago") }] });
    expect((await api(`/api/v1/deals/${dealId}`, authed(renter.access_token))).status).toBe(200);

    // The listing form's create refuses an evidence url as a picture.
    const [evidence] = await uploadEvidence(renter);
    await env.DB.prepare("UPDATE users SET id_verification_status = 'verified' WHERE id = ?").bind(renter.user.id).run();
    const listing = await call(renter.access_token, "/api/v1/subleases", "POST", { title: "Room", pictures: [evidence] });
    expect(listing.status).toBe(422);
    const { errors } = await json<{ errors: { path: string; message: string }[] }>(listing);
    expect(errors).toContainEqual({ path: "pictures.0", message: "Photos must be uploaded to CampusNest first" });
  });
});

describe("the cron", () => {
  it("deletes uploads no deal cited within a day (row and file) and keeps the cited ones for good", async () => {
    const [cited, uncited, fresh] = await uploadEvidence(renter, 3);
    await reportedDeal([cited!]);
    const dayAgo = new Date(Date.now() - EVIDENCE.unattachedTtlMs - 60_000).toISOString();
    await env.DB.prepare("UPDATE evidence_photos SET created_at = ? WHERE name IN (?, ?)").bind(dayAgo, nameOf(cited!), nameOf(uncited!)).run();
    const db = createDb(env);
    expect(await deleteUncitedUploads(db, env)).toBe(1);
    const rows = await env.DB.prepare("SELECT name, kept_at FROM evidence_photos WHERE name IN (?, ?, ?)").bind(nameOf(cited!), nameOf(uncited!), nameOf(fresh!)).all<{ name: string; kept_at: string | null }>();
    expect(Object.fromEntries(rows.results.map((r) => [r.name, !!r.kept_at]))).toEqual({ [nameOf(cited!)]: true, [nameOf(fresh!)]: false });
    expect(await env.ID_DOCUMENTS.head(`evidence/${nameOf(uncited!)}`)).toBeNull();
    expect(await env.ID_DOCUMENTS.head(`evidence/${nameOf(cited!)}`)).not.toBeNull();
    expect((await call(renter.access_token, uncited!)).status).toBe(404);
    // Nothing left to do: a second run deletes nothing and looks at the kept photo no more.
    expect(await deleteUncitedUploads(db, env)).toBe(0);
  });
});

describe("problem photos stored publicly before 0039", () => {
  it("the migration rewrites their urls; the job copies them privately and deletes the public copies, once", async () => {
    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id, { status: "disputed" });
    const door = `listings/${renter.user.id}_legacydoor.png`;
    const alsoListed = `listings/${renter.user.id}_legacyhall.png`;
    await env.IMAGES.put(door, PNG_1x1, { httpMetadata: { contentType: "image/png" } });
    await env.IMAGES.put(door.replace(".png", ".thumb.jpg"), JPEG_1x1);
    await env.IMAGES.put(alsoListed, PNG_1x1, { httpMetadata: { contentType: "image/png" } });
    // One photo is also on a listing of the renter's: it stays public as a listing photo.
    const { listingId } = await insertSignedDeal(lister.user.id, renter.user.id);
    await env.DB.prepare("INSERT INTO listing_photos (id, listing_id, key, position) VALUES (?, ?, ?, 0)").bind(`lp-${dealId}`, listingId, alsoListed).run();
    const photos = [`/api/v1/images/${door}`, `/api/v1/images/${alsoListed}`];
    await env.DB.prepare("INSERT INTO deal_statements (id, deal_id, party, author_id, text, photos, at) VALUES (?, ?, 'renter', ?, 'The door', ?, ?)")
      .bind(`st-${dealId}`, dealId, renter.user.id, JSON.stringify(photos), new Date().toISOString())
      .run();
    expect((await api(`/api/v1/images/${door}`)).status).toBe(200);

    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0039_"))!;
    for (const query of migration.queries) await env.DB.prepare(query).run();
    const statement = await env.DB.prepare("SELECT photos FROM deal_statements WHERE id = ?").bind(`st-${dealId}`).first<{ photos: string }>();
    const urls = JSON.parse(statement!.photos) as string[];
    expect(urls).toEqual([`/api/v1/evidence/${renter.user.id}_legacydoor.png`, `/api/v1/evidence/${renter.user.id}_legacyhall.png`]);
    // Before the job has run, the parties read it already (from the old key), privately; strangers do not.
    const early = await call(lister.access_token, urls[0]!);
    expect(early.status).toBe(200);
    expect(early.headers.get("cache-control")).toBe("private, no-store");
    expect([...(await bytesOf(early))]).toEqual([...PNG_1x1]);
    expect((await call(stranger.access_token, urls[0]!)).status).toBe(404);

    const db = createDb(env);
    expect(await copyLegacyEvidence(db, env, ["http://localhost"])).toBe(2);
    expect(await env.IMAGES.head(door)).toBeNull();
    expect(await env.IMAGES.head(door.replace(".png", ".thumb.jpg"))).toBeNull();
    expect(await env.IMAGES.head(alsoListed)).not.toBeNull();
    expect((await api(`/api/v1/images/${door}`)).status).toBe(404);
    for (const url of urls) {
      const res = await call(renter.access_token, url);
      expect(res.status).toBe(200);
      expect([...(await bytesOf(res))]).toEqual([...PNG_1x1]);
    }
    // Idempotent: nothing left to move, and the migration run again changes nothing.
    expect(await copyLegacyEvidence(db, env, ["http://localhost"])).toBe(0);
    for (const query of migration.queries) await env.DB.prepare(query).run();
    const again = await env.DB.prepare("SELECT photos FROM deal_statements WHERE id = ?").bind(`st-${dealId}`).first<{ photos: string }>();
    expect(JSON.parse(again!.photos)).toEqual(urls);
  });
});
