/**
 * Uploads and private files: no public image keeps its metadata or trailing bytes, a file that
 * cannot be read is refused, and identity documents never outlive their purpose.
 */
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import entry from "../../../worker/index";
import { stripMetadata } from "../../../worker/services/images";
import { adminLogin, api, authed, dataUrl, drainQueues, flatJpeg, flatPng, GIF_1x1, JPEG_1x1, json, PDF, PNG_1x1, type Session, signUp, vp8l, vp8x, webp } from "../helpers";

const latin1 = (bytes: Uint8Array) => new TextDecoder("latin1").decode(bytes);
const bytesOf = (...parts: (number[] | Uint8Array | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...new TextEncoder().encode(p)] : [...p])));

/** An APP1 segment carrying an Exif payload with GPS-looking text. */
const exifSegment = () => {
  const exif = new TextEncoder().encode("Exif\0\0GPSLatitude 29.6516 N");
  return [0xff, 0xe1, 0, exif.length + 2, ...exif];
};
const jpegWithExif = () => bytesOf(JPEG_1x1.subarray(0, 2), exifSegment(), JPEG_1x1.subarray(2));

async function uploadAvatar(s: Session, bytes: Uint8Array) {
  return api("/api/v1/users/avatar-base64", authed(s.access_token, { method: "POST", body: JSON.stringify({ image_data: dataUrl(bytes) }) }));
}

async function uploadPhotos(s: Session, files: { filename: string; bytes: Uint8Array; thumb?: string }[]) {
  const res = await api(
    "/api/v1/upload/multiple-base64",
    authed(s.access_token, {
      method: "POST",
      body: JSON.stringify({ images: files.map((f) => ({ filename: f.filename, content_type: "image/jpeg", image_data: dataUrl(f.bytes), thumbnail_data: f.thumb })) }),
    }),
  );
  return { status: res.status, body: await json<{ uploaded_files: { url: string; thumbnail_url: string | null }[]; failed_files: { filename: string; error: string }[] }>(res) };
}

describe("the metadata stripper walks each format to its end", () => {
  it("JPEG: drops EXIF, keeps every scan of a progressive file, cuts bytes after EOI", () => {
    const scan = (data: number[]) => [0xff, 0xda, 0, 8, 1, 1, 0, 0, 63, 0, ...data];
    const progressive = bytesOf(
      [0xff, 0xd8],
      exifSegment(),
      [0xff, 0xdb, 0, 4, 0, 1], // a (tiny) table segment
      scan([0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56]), // stuffed 0xFF and a restart marker inside the data
      [0xff, 0xc4, 0, 4, 0, 1], // another table between scans
      scan([0x78, 0x9a]),
      [0xff, 0xd9],
      "PK\u0003\u0004 a zip file riding along",
    );
    const out = stripMetadata(progressive, "image/jpeg")!;
    expect(latin1(out)).not.toContain("GPSLatitude");
    expect(latin1(out)).not.toContain("PK");
    expect([...out.subarray(-2)]).toEqual([0xff, 0xd9]);
    expect([...out]).toEqual([...bytesOf([0xff, 0xd8], [0xff, 0xdb, 0, 4, 0, 1], scan([0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56]), [0xff, 0xc4, 0, 4, 0, 1], scan([0x78, 0x9a]), [0xff, 0xd9])]);
  });

  it("refuses what it cannot walk: a truncated JPEG, a bad segment length, a PNG without IEND, garbage", () => {
    expect(stripMetadata(JPEG_1x1.subarray(0, JPEG_1x1.length - 2), "image/jpeg")).toBeNull();
    expect(stripMetadata(bytesOf([0xff, 0xd8, 0xff, 0xe1, 0xff, 0xff, 1, 2, 3]), "image/jpeg")).toBeNull();
    expect(stripMetadata(PNG_1x1.subarray(0, PNG_1x1.length - 12), "image/png")).toBeNull();
    expect(stripMetadata(bytesOf([0xff, 0xd8], "hello"), "image/jpeg")).toBeNull();
  });

  it("PNG: drops text chunks and cuts bytes after IEND", () => {
    const text = bytesOf([0, 0, 0, 12], "tEXt", "GPS=29.65 N!", [0, 0, 0, 0]);
    const png = bytesOf(PNG_1x1.subarray(0, 33), text, PNG_1x1.subarray(33), "<?php trailing ?>");
    const out = stripMetadata(png, "image/png")!;
    expect([...out]).toEqual([...PNG_1x1]);
  });

  it("GIF: keeps a clean image, drops comments, refuses bytes after the trailer", () => {
    expect([...stripMetadata(GIF_1x1, "image/gif")!]).toEqual([...GIF_1x1]);
    const comment = bytesOf([0x21, 0xfe, 5], "hello", [0]);
    const commented = bytesOf(GIF_1x1.subarray(0, 13 + 6), comment, GIF_1x1.subarray(13 + 6));
    expect([...stripMetadata(commented, "image/gif")!]).toEqual([...GIF_1x1]);
    expect(stripMetadata(bytesOf(GIF_1x1, "<script>alert(1)</script>"), "image/gif")).toBeNull();
  });

  it("WebP: drops EXIF and XMP chunks, clears their flags, and ignores bytes past the RIFF size", () => {
    const chunk = (type: string, data: number[]) => bytesOf(type, [data.length, 0, 0, 0], data, data.length % 2 ? [0] : []);
    const vp8x = chunk("VP8X", [0x0c, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const body = bytesOf("WEBP", vp8x, chunk("VP8L", [0x2f, 0, 0, 0, 0]), chunk("EXIF", [...new TextEncoder().encode("GPS 29.65")]));
    const webp = bytesOf("RIFF", [body.length & 255, body.length >> 8, 0, 0], body, "trailing");
    const out = stripMetadata(webp, "image/webp")!;
    expect(latin1(out)).not.toContain("GPS");
    expect(latin1(out)).not.toContain("trailing");
    expect(out[20]! & 0x0c).toBe(0);
    expect(new DataView(out.buffer).getUint32(4, true)).toBe(out.length - 8);
  });
});

describe("avatars and listing photos", () => {
  it("strips an avatar's EXIF/GPS like a listing photo's", async () => {
    const s = await signUp("gps-avatar@ufl.edu");
    const res = await uploadAvatar(s, jpegWithExif());
    expect(res.status).toBe(200);
    const served = new Uint8Array(await (await api((await json<{ avatar_url: string }>(res)).avatar_url)).arrayBuffer());
    expect(latin1(served)).not.toContain("GPSLatitude");
    expect([...served]).toEqual([...JPEG_1x1]);
  });

  it("refuses an avatar it cannot read with a clear 422, and stores nothing", async () => {
    const s = await signUp("broken-avatar@ufl.edu");
    const before = (await env.IMAGES.list({ prefix: "avatars/" })).objects.length;
    const res = await uploadAvatar(s, bytesOf(jpegWithExif().subarray(0, 30)));
    expect(res.status).toBe(422);
    expect((await json<{ detail: string }>(res)).detail).toBe("This image is damaged or could not be read. Please choose another photo.");
    expect((await env.IMAGES.list({ prefix: "avatars/" })).objects).toHaveLength(before);
    const gifWithPayload = await uploadAvatar(s, bytesOf(GIF_1x1, "<html>"));
    expect(gifWithPayload.status).toBe(422);
  });

  it("cuts a photo at its end-of-image marker and refuses unreadable ones file by file", async () => {
    const s = await signUp("photos@ufl.edu");
    await env.DB.prepare("UPDATE users SET id_verification_status = 'verified' WHERE id = ?").bind(s.user.id).run();
    const { status, body } = await uploadPhotos(s, [
      { filename: "room.jpg", bytes: bytesOf(JPEG_1x1, "appended secret") },
      { filename: "cut.jpg", bytes: JPEG_1x1.subarray(0, 40) },
      { filename: "anim.gif", bytes: bytesOf(GIF_1x1, "trailing") },
      { filename: "doc.jpg", bytes: PDF },
    ]);
    expect(status).toBe(200);
    expect(body.failed_files.map((f) => [f.filename, f.error])).toEqual([
      ["cut.jpg", "The image is damaged or could not be read"],
      ["anim.gif", "The image is damaged or could not be read"],
      ["doc.jpg", "Only JPEG, PNG, WebP and GIF images are allowed"],
    ]);
    const served = new Uint8Array(await (await api(body.uploaded_files[0]!.url)).arrayBuffer());
    expect([...served]).toEqual([...JPEG_1x1]);
  });

  it("skips a thumbnail over its size without decoding it, keeping the photo", async () => {
    const s = await signUp("thumbs@ufl.edu");
    const { body } = await uploadPhotos(s, [
      { filename: "small.jpg", bytes: JPEG_1x1, thumb: dataUrl(jpegWithExif()) },
      { filename: "big.jpg", bytes: JPEG_1x1, thumb: `data:image/jpeg;base64,${"A".repeat(800_000)}` },
    ]);
    expect(body.uploaded_files[0]!.thumbnail_url).toMatch(/\.thumb\.jpg$/);
    const thumb = new Uint8Array(await (await api(body.uploaded_files[0]!.thumbnail_url!)).arrayBuffer());
    expect(latin1(thumb)).not.toContain("GPSLatitude");
    expect(body.uploaded_files[1]!.thumbnail_url).toBeNull();
  });
});

describe("pictures within memory: at most 25 megapixels, read from the header before anything is decoded", () => {
  it("refuses a 6000x6000 PNG and a 7000x5000 JPEG (small files) among listing photos and private evidence, keeps the others, and the next request answers", async () => {
    const s = await signUp("bombs@ufl.edu");
    const png6000 = await flatPng(6000, 6000);
    const jpeg7000 = flatJpeg(7000, 5000);
    expect(png6000.length + jpeg7000.length).toBeLessThan(400_000);
    const before = (await env.IMAGES.list({ prefix: `listings/${s.user.id}_` })).objects.length;
    const { status, body } = await uploadPhotos(s, [
      { filename: "bomb.png", bytes: png6000 },
      { filename: "room.jpg", bytes: JPEG_1x1 },
      { filename: "bomb.jpg", bytes: jpeg7000 },
      { filename: "canvas.webp", bytes: webp([vp8x(100, 100), vp8l(16000, 16000)]) },
      { filename: "exactly.jpg", bytes: flatJpeg(5000, 5000) },
    ]);
    expect(status).toBe(200);
    expect(body.failed_files).toEqual([
      { filename: "bomb.png", error: "bomb.png is too large: at most 25 megapixels" },
      { filename: "bomb.jpg", error: "bomb.jpg is too large: at most 25 megapixels" },
      { filename: "canvas.webp", error: "canvas.webp is too large: at most 25 megapixels" },
    ]);
    expect(body.uploaded_files).toHaveLength(2);
    expect((await env.IMAGES.list({ prefix: `listings/${s.user.id}_` })).objects).toHaveLength(before + 2);
    const next = await api("/api/version");
    expect(next.status).toBe(200);
    expect(await json<{ version: string }>(next)).toHaveProperty("version");
    // Only refused ones: the contract's 400, its detail the first refusal.
    const refused = await uploadPhotos(s, [{ filename: "bomb.png", bytes: png6000 }]);
    expect(refused.status).toBe(400);
    expect((refused.body as unknown as { detail: string }).detail).toBe("bomb.png is too large: at most 25 megapixels");
    // Private evidence shares the per-file check: the same files are refused there, nothing stored.
    const evidenceBefore = (await env.ID_DOCUMENTS.list({ prefix: "evidence/" })).objects.length;
    const evidence = await api(
      "/api/v1/upload/evidence",
      authed(s.access_token, {
        method: "POST",
        body: JSON.stringify({ images: [{ filename: "bomb.png", content_type: "image/png", image_data: dataUrl(png6000) }, { filename: "bomb.jpg", content_type: "image/jpeg", image_data: dataUrl(jpeg7000) }, { filename: "leak.jpg", content_type: "image/jpeg", image_data: dataUrl(JPEG_1x1) }] }),
      }),
    );
    expect(evidence.status).toBe(200);
    const evidenceBody = await json<{ uploaded_files: unknown[]; failed_files: { filename: string; error: string }[] }>(evidence);
    expect(evidenceBody.failed_files).toEqual([
      { filename: "bomb.png", error: "bomb.png is too large: at most 25 megapixels" },
      { filename: "bomb.jpg", error: "bomb.jpg is too large: at most 25 megapixels" },
    ]);
    expect(evidenceBody.uploaded_files).toHaveLength(1);
    expect((await env.ID_DOCUMENTS.list({ prefix: "evidence/" })).objects).toHaveLength(evidenceBefore + 1);
    expect((await api("/api/version")).status).toBe(200);
  });

  it("refuses an avatar and an identity document over 25 megapixels with a clear 422, storing nothing; a PDF document is not a picture", async () => {
    const s = await signUp("bomb-avatar@ufl.edu");
    const avatars = (await env.IMAGES.list({ prefix: "avatars/" })).objects.length;
    const avatar = await uploadAvatar(s, await flatPng(6000, 6000));
    expect(avatar.status).toBe(422);
    expect((await json<{ detail: string }>(avatar)).detail).toBe("This image is too large: at most 25 megapixels");
    expect((await env.IMAGES.list({ prefix: "avatars/" })).objects).toHaveLength(avatars);
    const document = await api("/api/v1/verification/upload-document", authed(s.access_token, { method: "POST", body: JSON.stringify({ filename: "id.jpg", image_data: dataUrl(flatJpeg(7000, 5000)) }) }));
    expect(document.status).toBe(422);
    expect((await json<{ detail: string }>(document)).detail).toBe("id.jpg is too large: at most 25 megapixels");
    expect((await env.ID_DOCUMENTS.list({ prefix: `documents/${s.user.id}/` })).objects).toHaveLength(0);
    const pdf = await api("/api/v1/verification/upload-document", authed(s.access_token, { method: "POST", body: JSON.stringify({ filename: "id.pdf", image_data: dataUrl(PDF) }) }));
    expect(pdf.status).toBe(201);
    expect((await api("/api/version")).status).toBe(200);
  });
});

describe("identity documents", () => {
  async function uploadDocument(s: Session) {
    const res = await api("/api/v1/verification/upload-document", authed(s.access_token, { method: "POST", body: JSON.stringify({ filename: "id.pdf", image_data: dataUrl(PDF) }) }));
    return (await json<{ id_document_url: string }>(res)).id_document_url;
  }
  const keyOf = (reference: string) => reference.replace("private-document:", "");

  it("account deletion removes every document the user ever uploaded, submitted or not", async () => {
    const s = await signUp("docs-gone@ufl.edu");
    const submitted = await uploadDocument(s);
    await api("/api/v1/verification/submit-url", authed(s.access_token, { method: "POST", body: JSON.stringify({ document_type: "passport", id_document_url: submitted }) }));
    await uploadDocument(s);
    expect((await env.ID_DOCUMENTS.list({ prefix: `documents/${s.user.id}/` })).objects).toHaveLength(2);
    expect((await api("/api/v1/users/profile", authed(s.access_token, { method: "DELETE" }))).status).toBe(204);
    expect((await env.ID_DOCUMENTS.list({ prefix: `documents/${s.user.id}/` })).objects).toHaveLength(0);
  });

  it("the cron deletes documents uploaded but never submitted after 24 hours, and keeps submitted ones", async () => {
    const s = await signUp("docs-abandoned@ufl.edu");
    const abandoned = await uploadDocument(s);
    const recent = await uploadDocument(s);
    const submitted = await uploadDocument(s);
    await api("/api/v1/verification/submit-url", authed(s.access_token, { method: "POST", body: JSON.stringify({ document_type: "passport", id_document_url: submitted }) }));
    const dayAgo = new Date(Date.now() - 25 * 3600_000).toISOString();
    await env.DB.prepare("UPDATE document_uploads SET created_at = ? WHERE key = ?").bind(dayAgo, keyOf(abandoned)).run();
    // The submitted one has no upload row any more, whatever its age.
    expect(await env.DB.prepare("SELECT key FROM document_uploads WHERE key = ?").bind(keyOf(submitted)).first()).toBeNull();
    const ctx = createExecutionContext();
    await entry.scheduled!(createScheduledController({ cron: "*/15 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    // The cron only queued its jobs; the jobs queue's consumer runs them.
    await drainQueues();
    expect(await env.ID_DOCUMENTS.head(keyOf(abandoned))).toBeNull();
    expect(await env.ID_DOCUMENTS.head(keyOf(recent))).not.toBeNull();
    expect(await env.ID_DOCUMENTS.head(keyOf(submitted))).not.toBeNull();
    // Running it again changes nothing.
    const again = createExecutionContext();
    await entry.scheduled!(createScheduledController({ cron: "*/15 * * * *" }), env, again);
    await waitOnExecutionContext(again);
    await drainQueues();
    expect(await env.ID_DOCUMENTS.head(keyOf(submitted))).not.toBeNull();
  });

  it("reaches staff as an attachment under a sandbox CSP, never as a page of our origin", async () => {
    const s = await signUp("docs-staff@ufl.edu");
    const reference = await uploadDocument(s);
    const submitted = await json<{ data: { id: string } }>(
      await api("/api/v1/verification/submit-url", authed(s.access_token, { method: "POST", body: JSON.stringify({ document_type: "passport", id_document_url: reference }) })),
    );
    const token = await adminLogin();
    const res = await api(`/api/v1/verification/admin/${submitted.data.id}/document`, authed(token));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="identity-document-.+\.pdf"$/);
    expect(res.headers.get("content-security-policy")).toBe("sandbox; default-src 'none'");
    expect(res.headers.get("cache-control")).toBe("no-store, private");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });
});
