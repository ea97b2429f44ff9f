import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, authed, dataUrl, HTML, JPEG_1x1, json, PDF, PNG_1x1, type Session, signUp } from "../helpers";

const upload = (s: Session, body: Record<string, unknown>) =>
  api("/api/v1/verification/upload-document", authed(s.access_token, { method: "POST", body: JSON.stringify(body) }));
const submit = (s: Session, body: Record<string, unknown>) =>
  api("/api/v1/verification/submit-url", authed(s.access_token, { method: "POST", body: JSON.stringify(body) }));
const status = async (s: Session) =>
  (await json<{ data: { status: string; latest_request: Record<string, unknown> | null } }>(
    await api("/api/v1/verification/status", authed(s.access_token)),
  )).data;

async function uploaded(s: Session, bytes: Uint8Array = JPEG_1x1, filename = "id.jpg") {
  const contentType = filename.endsWith(".pdf") ? "application/pdf" : "image/jpeg";
  const res = await upload(s, { filename, content_type: contentType, image_data: dataUrl(bytes, contentType) });
  expect(res.status).toBe(201);
  return (await json<{ id_document_url: string }>(res)).id_document_url;
}

describe("identity verification", () => {
  it("goes unverified -> pending, refuses a second request (409), shows a rejection and allows resubmission", async () => {
    const s = await signUp("idcheck@ufl.edu");
    expect(await status(s)).toEqual({ status: "unverified", latest_request: null });

    const ref = await uploaded(s);
    const res = await submit(s, { document_type: "student_id", notes: "front side", id_document_url: ref });
    expect(res.status).toBe(201);
    const { data } = await json<{ data: Record<string, unknown> }>(res);
    expect(data).toMatchObject({ status: "pending", document_type: "student_id", notes: "front side", user_id: s.user.id });

    expect((await status(s)).status).toBe("pending");
    const again = await submit(s, { document_type: "passport", id_document_url: await uploaded(s) });
    expect(again.status).toBe(409);
    expect(await json(again)).toEqual({ detail: "You have a pending verification request" });

    // The staff review (admin panel issue): rejected with a reason.
    await env.DB.batch([
      env.DB.prepare("UPDATE verification_requests SET status = 'rejected', rejection_reason = 'Photo is blurry' WHERE user_id = ?").bind(s.user.id),
      env.DB.prepare("UPDATE users SET id_verification_status = 'rejected' WHERE id = ?").bind(s.user.id),
    ]);
    const rejected = await status(s);
    expect(rejected.status).toBe("rejected");
    expect(rejected.latest_request).toMatchObject({ rejection_reason: "Photo is blurry" });

    const resubmitted = await submit(s, { document_type: "passport", notes: null, id_document_url: await uploaded(s, PDF, "passport.pdf") });
    expect(resubmitted.status).toBe(201);
    expect((await status(s)).status).toBe("pending");

    await env.DB.prepare("UPDATE users SET id_verification_status = 'verified' WHERE id = ?").bind(s.user.id).run();
    const verified = await submit(s, { document_type: "passport", id_document_url: await uploaded(s) });
    expect(verified.status).toBe(409);
    expect(await json(verified)).toEqual({ detail: "You are already verified" });
  });

  it("checks the type from the bytes: a PDF renamed .jpg and HTML renamed .pdf are refused", async () => {
    const s = await signUp("types@ufl.edu");
    const message = { detail: "Invalid file type. Only JPEG, PNG, WebP, and PDF files are allowed." };
    const renamedPdf = await upload(s, { filename: "id.jpg", content_type: "image/jpeg", image_data: dataUrl(PDF, "image/jpeg") });
    expect(renamedPdf.status).toBe(400);
    expect(await json(renamedPdf)).toEqual(message);
    const renamedHtml = await upload(s, { filename: "id.pdf", content_type: "application/pdf", image_data: dataUrl(HTML, "application/pdf") });
    expect(renamedHtml.status).toBe(400);
    expect(await json(renamedHtml)).toEqual(message);
    expect((await upload(s, { filename: "scan.png", image_data: dataUrl(PNG_1x1) })).status).toBe(201);
    expect((await upload(s, { filename: "scan.pdf", image_data: dataUrl(PDF) })).status).toBe(201);
    const empty = await upload(s, { filename: "x.jpg", image_data: "" });
    expect(empty.status).toBe(422);
    expect(await json(empty)).toMatchObject({ detail: "Please select a document to upload." });
    // A file that was sent says what is wrong with it, not "select a document".
    const nothingInside = await upload(s, { filename: "scan.pdf", image_data: "data:application/pdf;base64," });
    expect(nothingInside.status).toBe(400);
    expect(await json(nothingInside)).toEqual({ detail: "The file is empty. Please choose a JPEG, PNG, WebP or PDF file." });
    const garbled = await upload(s, { filename: "scan.pdf", image_data: "data:application/pdf;base64,%%%" });
    expect(garbled.status).toBe(400);
    expect(await json(garbled)).toEqual({ detail: "The file could not be read. Please choose a JPEG, PNG, WebP or PDF file." });
  });

  it("keeps documents private: no public URL serves them, and another user cannot submit them", async () => {
    const owner = await signUp("owner-doc@ufl.edu");
    const thief = await signUp("thief-doc@ufl.edu");
    const ref = await uploaded(owner);
    const key = ref.replace(/^private-document:/, "");
    expect(await env.ID_DOCUMENTS.head(key)).not.toBeNull();
    expect(await env.IMAGES.head(key)).toBeNull();
    for (const path of [`/api/v1/images/${key}`, `/api/v1/images/${ref}`, `/${key}`, `/api/v1/${key}`]) {
      const res = await api(path);
      expect(res.headers.get("content-type") ?? "").not.toContain("image/jpeg");
      expect([200, 404]).toContain(res.status);
      if (res.status === 200) expect(await res.text()).toContain('<div id="root">'); // the SPA, not the file
    }
    const stolen = await submit(thief, { document_type: "passport", id_document_url: ref });
    expect(stolen.status).toBe(422);
    expect((await status(thief)).status).toBe("unverified");
  });

  it("every verification route refuses a visitor with 401", async () => {
    for (const [method, path] of [
      ["POST", "/api/v1/verification/upload-document"],
      ["POST", "/api/v1/verification/submit-url"],
      ["GET", "/api/v1/verification/status"],
    ] as const) {
      expect((await api(path, { method, body: method === "POST" ? "{}" : undefined })).status).toBe(401);
    }
  });
});
