/** Search engines: robots.txt, the paged sitemap of public listings, canonical listing addresses. */
import { beforeAll, describe, expect, it } from "vitest";
import { api, insertListing, signUp } from "../helpers";

beforeAll(async () => {
  const owner = await signUp("seo-owner@ufl.edu");
  await insertListing(owner.user.id, "Qseo1");
  await insertListing(owner.user.id, "Qseo2", { verification_status: "pending" });
  await insertListing(owner.user.id, "Qseo3", { moderation_status: "hidden" });
  await insertListing(owner.user.id, "qseo4");
});

describe("robots.txt", () => {
  it("keeps private pages and the API out, allows listing photos, names the sitemap, and never the staff path", async () => {
    const res = await api("/robots.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    expect(text).toContain("User-agent: *");
    for (const path of ["/api/", "/profile", "/messages", "/edit/", "/availability"]) expect(text).toContain(`Disallow: ${path}`);
    expect(text).toContain("Allow: /api/v1/images/");
    expect(text).toMatch(/^Sitemap: https?:\/\/[^\s]+\/sitemap\.xml$/m);
    expect(text).not.toContain("staff");
  });
});

describe("sitemap", () => {
  it("is an index of the pages' map and one map per first character of listing ids", async () => {
    const res = await api("/sitemap.xml");
    expect(res.headers.get("content-type")).toContain("application/xml");
    const text = await res.text();
    expect(text).toContain("<sitemapindex");
    expect(text).toContain("/sitemap-pages.xml</loc>");
    expect(text).toContain("/sitemap-listings-Q.xml</loc>");
    expect(text).toContain("/sitemap-listings-q.xml</loc>");
    expect(text.match(/<sitemap>/g)).toHaveLength(63);
    expect(await (await api("/sitemap-pages.xml")).text()).toMatch(/<loc>https?:\/\/[^<]+\/safety<\/loc>/);
  });

  it("lists only public listings, each in the page of its first character (case matters)", async () => {
    const upper = await (await api("/sitemap-listings-Q.xml")).text();
    expect(upper).toMatch(/<loc>https?:\/\/[^<]+\/listing\/Qseo1<\/loc><lastmod>\d{4}-\d{2}-\d{2}<\/lastmod>/);
    expect(upper).not.toContain("Qseo2");
    expect(upper).not.toContain("Qseo3");
    expect(upper).not.toContain("qseo4");
    expect(await (await api("/sitemap-listings-q.xml")).text()).toContain("/listing/qseo4</loc>");
    // Not a page of the index: the SPA's not-found page, not a sitemap.
    expect((await api("/sitemap-listings-_.xml")).headers.get("content-type")).not.toContain("xml");
  });
});

describe("canonical address", () => {
  it("a public listing's page names its address without the back parameter", async () => {
    const html = await (await api("/listing/Qseo1?back=%2F%3Funiversity%3D1")).text();
    expect(html).toMatch(/<link rel="canonical" href="https?:\/\/[^"]+\/listing\/Qseo1">/);
  });
});
