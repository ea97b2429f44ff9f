import { env } from "cloudflare:test";
import { publicAddress } from "../../../worker/contract/address";

/** Small real files, built byte by byte (no binary fixtures in the repo). */
export const PNG_1x1 = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);
export const JPEG_1x1 = Uint8Array.from(
  atob(
    "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAAA//EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AN//Z",
  ),
  (c) => c.charCodeAt(0),
);
/** The classic 1x1 GIF89a: header, screen descriptor, 2-colour table, graphic control, image, trailer. */
export const GIF_1x1 = Uint8Array.from(atob("R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=="), (c) => c.charCodeAt(0));
export const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
export const HTML = new TextEncoder().encode("<!doctype html><script>alert(1)</script>");

export function dataUrl(bytes: Uint8Array, type = "application/octet-stream"): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return `data:${type};base64,${btoa(binary)}`;
}

/**
 * A listing written straight to D1 (no photos, no review): approved and available unless `fields`
 * say otherwise. created_at follows the digits of the id, one minute apart, so order is predictable.
 * The public address is made from the address as a save makes it, unless `fields` set it (null: a row
 * from before public addresses were stored).
 */
export async function insertListing(userId: string, id: string, fields: Record<string, string | number | null> = {}) {
  const row: Record<string, string | number | null> = {
    id,
    user_id: userId,
    university_id: 1,
    title: `Listing ${id}`,
    description: "Sunny room near campus",
    unit_type: "2x2",
    address: "100 Main St",
    monthly_rent: 800,
    lease_term: "fall",
    parking: 0,
    allow_pets: 0,
    gender_preference: "no_preference",
    verification_status: "approved",
    status: "available",
    created_at: new Date(Date.UTC(2026, 0, 1) + Number(id.replace(/\D/g, "") || 0) * 60_000).toISOString(),
    promotion_start: null,
    promotion_end: null,
    ...fields,
  };
  if (!("address_public" in fields)) row.address_public = publicAddress(String(row.address));
  const cols = Object.keys(row);
  await env.DB.prepare(`INSERT INTO listings (${cols.join(",")}) VALUES (${cols.map(() => "?").join(",")})`)
    .bind(...Object.values(row))
    .run();
}
