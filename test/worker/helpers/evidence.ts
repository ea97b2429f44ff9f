import { expect } from "vitest";
import { api, authed, json, type Session } from "./api";
import { dataUrl, PNG_1x1 } from "./fixtures";

/** Uploads `count` photos as private evidence through POST upload/evidence (as the SPA's problem form does): their urls. */
export async function uploadEvidence(s: Session, count = 1, bytes: Uint8Array = PNG_1x1): Promise<string[]> {
  const images = Array.from({ length: count }, (_, i) => ({ filename: `evidence-${i}.png`, content_type: "image/png", image_data: dataUrl(bytes) }));
  const res = await api("/api/v1/upload/evidence", authed(s.access_token, { method: "POST", body: JSON.stringify({ images }), headers: { "content-type": "application/json" } }));
  expect(res.status).toBe(200);
  return (await json<{ uploaded_files: { url: string }[] }>(res)).uploaded_files.map((f) => f.url);
}
