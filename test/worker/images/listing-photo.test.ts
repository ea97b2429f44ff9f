/**
 * A listing page's main photo (docs/decisions/023): its preload is in the head, ahead of the scripts and the
 * stylesheet, asking for exactly what the page's <img> asks for (one download), and the photo itself
 * comes from the edge cache after the first request in a data center.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { IMAGE_EDGE_TTL_S } from "../../../worker/routes/images";
import { leadingImagePreloads } from "../../../worker/services/pages";
import { api, insertListing, JPEG_1x1, signUp } from "../helpers";

/** The value of one attribute of a tag (HTML attribute names are case-insensitive). */
const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`, "i").exec(tag)?.[1];

let ownerId = "";
const full = () => `listings/${ownerId}_photoMain.jpg`;
const thumb = () => `listings/${ownerId}_photoMain.thumb.jpg`;

beforeAll(async () => {
  const owner = await signUp("photo-preload@ufl.edu", "secret-pass-1");
  ownerId = owner.user.id;
  await insertListing(ownerId, "Ph01", { title: "Photo loft" });
  await insertListing(ownerId, "Ph02", { title: "No photo loft" });
  const photo = (id: string, listingId: string, key: string, thumbKey: string | null, position: number) =>
    env.DB.prepare("INSERT INTO listing_photos (id, listing_id, key, thumb_key, position) VALUES (?, ?, ?, ?, ?)").bind(id, listingId, key, thumbKey, position).run();
  await photo("Ph01-0", "Ph01", full(), thumb(), 0);
  await photo("Ph01-1", "Ph01", `listings/${ownerId}_photoTwo.jpg`, `listings/${ownerId}_photoTwo.thumb.jpg`, 1);
  await env.IMAGES.put(full(), JPEG_1x1, { httpMetadata: { contentType: "image/jpeg" } });
});

describe("a listing page's main photo", () => {
  it("is preloaded from the head, before any script or stylesheet, with the <img>'s own srcset and sizes", async () => {
    const res = await api("/listing/Ph01");
    expect(res.status).toBe(200);
    const html = await res.text();
    const head = html.slice(0, html.indexOf("</head>"));
    const body = html.slice(html.indexOf("</head>"));

    const preloads = head.match(/<link rel="preload" as="image"[^>]*>/g) ?? [];
    expect(preloads).toHaveLength(1);
    const preload = preloads[0]!;
    expect(head.indexOf(preload)).toBeLessThan(head.indexOf("<script"));
    expect(head.indexOf(preload)).toBeLessThan(head.indexOf(`<link rel="stylesheet"`));
    expect(head.indexOf(preload)).toBeLessThan(head.indexOf(`<link rel="modulepreload"`) >>> 0);
    // Moved, not copied: the body holds no second preload for the same photo.
    expect(body).not.toMatch(/<link rel="preload" as="image"/);

    // The main photo's <img> (the phone's carousel and the wide screen's photo: the same request).
    const images = body.match(/<img[^>]*fetchpriority="high"[^>]*>/gi) ?? [];
    expect(images.length).toBeGreaterThan(0);
    for (const img of images) {
      expect(attr(preload, "imagesrcset")).toBe(attr(img, "srcset"));
      expect(attr(preload, "imagesizes")).toBe(attr(img, "sizes"));
    }
    expect(attr(preload, "imagesrcset")).toBe(`/api/v1/images/${thumb()} 480w, /api/v1/images/${full()} 1920w`);
    expect(attr(preload, "imagesizes")).toMatch(/100vw/);
    expect(attr(preload, "fetchpriority")).toBe("high");
    // Only the main photo: the second photo and the thumbnail strip load later (lazily).
    expect(preload).not.toContain("photoTwo");
  });

  it("a listing without photos preloads its placeholder the same way; the home page keeps React's markup", async () => {
    const html = await (await api("/listing/Ph02")).text();
    const head = html.slice(0, html.indexOf("</head>"));
    const preload = head.match(/<link rel="preload" as="image"[^>]*>/)?.[0] ?? "";
    const img = html.match(/<img[^>]*fetchpriority="high"[^>]*>/i)?.[0] ?? "";
    expect(attr(img, "src")).toBe("/placeholder.svg");
    expect(attr(preload, "href")).toBe("/placeholder.svg");
  });

  it("takes only the preloads at the very start of the markup", () => {
    const a = `<link rel="preload" as="image" imageSrcSet="/a 480w" fetchPriority="high"/>`;
    const b = `<link rel="preload" as="image" href="/b.svg"/>`;
    expect(leadingImagePreloads(`${a}${b}<div><link rel="preload" as="image" href="/c"/></div>`)).toEqual({
      preloads: [a, b],
      rest: `<div><link rel="preload" as="image" href="/c"/></div>`,
    });
    expect(leadingImagePreloads("<div></div>")).toEqual({ preloads: [], rest: "<div></div>" });
  });
});

describe("GET /api/v1/images/{key}", () => {
  it("answers from R2 the first time, then from the edge cache, immutable for browsers", async () => {
    const path = `/api/v1/images/${full()}`;
    const first = await api(path);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-edge-cache")).toBe("MISS");
    expect(first.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(new Uint8Array(await first.arrayBuffer())).toEqual(JPEG_1x1);

    const again = await api(path);
    expect(again.status).toBe(200);
    expect(again.headers.get("x-edge-cache")).toBe("HIT");
    expect(again.headers.get("content-type")).toBe("image/jpeg");
    expect(again.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(again.headers.get("x-content-type-options")).toBe("nosniff");
    expect(again.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(JPEG_1x1);
    // The edge keeps it a day (a photo deleted from R2 stops being served within that), not a year.
    const entry = await caches.default.match(`http://localhost${path}`);
    expect(entry?.headers.get("cache-control")).toBe(`public, max-age=${IMAGE_EDGE_TTL_S}`);
  });

  it("a query string does not make another entry, and an unknown photo is a 404 that is not cached", async () => {
    expect((await api(`/api/v1/images/${full()}?v=2`)).headers.get("x-edge-cache")).toBe("HIT");
    const missing = `/api/v1/images/listings/${ownerId}_nothere.jpg`;
    expect((await api(missing)).status).toBe(404);
    expect(await caches.default.match(`http://localhost${missing}`)).toBeUndefined();
  });
});
