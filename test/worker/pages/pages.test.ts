/** Pages rendered by the worker (docs/decisions/017): `/` and `/listing/{id}` arrive as HTML with their data. */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { THEME_INIT_SCRIPT } from "../../../worker/contract/theme-init";
import { api, authed, insertListing, json, signUp } from "../helpers";

interface DehydratedQuery {
  queryKey: unknown[];
  state: { status: string; data: unknown; error: { status?: number } | null };
}

/** The markup inside <div id="root"> and the JSON data block of a rendered page. */
async function rendered(path: string) {
  const res = await api(path);
  const html = await res.text();
  const root = html.match(/<div id="root">([\s\S]*)<\/div><script type="application\/json" id="ssr-data">/)?.[1] ?? "";
  const block = html.match(/<script type="application\/json" id="ssr-data">([\s\S]*?)<\/script>/)?.[1];
  const data = block ? (JSON.parse(block) as { queries: DehydratedQuery[] }) : null;
  return { res, html, root, data, query: (head: string) => data?.queries.find((q) => JSON.stringify(q.queryKey).includes(head)) };
}

let ownerFirstName = "";
let ownerToken = "";

beforeAll(async () => {
  const owner = await signUp("pages-owner@ufl.edu", "secret-pass-1", { first_name: "Priya" });
  ownerFirstName = String(owner.user.first_name);
  ownerToken = owner.access_token;
  await insertListing(owner.user.id, "Pg01", { title: "Pages loft one", monthly_rent: 910 });
  await insertListing(owner.user.id, "Pg02", { title: "Pages studio two", university_id: 2, unit_type: "studio" });
  // A title that tries to end the data block and run a script of its own.
  await insertListing(owner.user.id, "Pg03", { title: "</script><script>alert(1)</script>" });
  await insertListing(owner.user.id, "Pg04", { title: "Pages pending", verification_status: "pending" });
});

describe("the home page", () => {
  it("arrives rendered: hero, filter bar and the first batch of cards, from the same data the API answers", async () => {
    const page = await rendered("/");
    expect(page.res.status).toBe(200);
    expect(page.res.headers.get("content-type")).toContain("text/html");
    expect(page.root).toContain("<h1>Find a sublease near campus</h1>");
    expect(page.root).toContain('placeholder="Search listings"');
    expect(page.root).toContain("Pages loft one");
    expect(page.root).toContain("Pages studio two");
    expect(page.root).not.toContain("Pages pending");

    const browse = page.query('"browse"');
    const api12 = await json<{ data: { id: string }[] }>(await api("/api/v1/subleases/?limit=12"));
    const pages = (browse?.state.data as { pages: { data: Record<string, unknown>[] }[] }).pages;
    expect(pages[0]!.data.map((l) => l.id)).toEqual(api12.data.map((l) => l.id));
  });

  it("embeds only what the first screen renders: card fields, the chosen university's short name, no list of universities", async () => {
    const page = await rendered("/?university=1");
    const cards = (page.query('"browse"')?.state.data as { pages: { data: Record<string, unknown>[] }[] }).pages[0]!.data;
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) {
      expect(card).toHaveProperty("title");
      expect(card).toHaveProperty("thumbnails");
      // Fields the card does not show stay out of the page.
      expect(card).not.toHaveProperty("description");
      // The card's street and area (decision 024), never the address as entered.
      expect(card.address).toBe("Main St");
      expect(card).not.toHaveProperty("pictures");
    }
    expect(page.query('"short-name"')?.state.data).toEqual({ id: 1, abbreviation: expect.any(String) });
    expect(page.data!.queries.filter((q) => JSON.stringify(q.queryKey) === '["universities"]')).toEqual([]);
    // The university choice is a searchable field, not a select of every university.
    expect(page.root).toMatch(/<input[^>]*name="campus"/);
    expect((page.root.match(/<option/g) ?? []).length).toBeLessThan(40);
    expect(page.html.length).toBeLessThan(40_000);
  });

  it("asks for the first card's photo from the head, before any script (its largest paint)", async () => {
    const { html, root } = await rendered("/");
    const head = html.slice(0, html.indexOf("</head>"));
    const preload = head.indexOf('<link rel="preload" as="image"');
    expect(preload).toBeGreaterThan(-1);
    expect(preload).toBeLessThan(head.indexOf("<script"));
    expect(root).not.toContain('rel="preload" as="image"');
    // The same image as the first card's <img> (its srcset, or the placeholder's src), downloaded once.
    const tag = /<link rel="preload" as="image"[^>]*>/.exec(head)![0];
    const srcset = /imageSrcSet="([^"]*)"/.exec(tag)?.[1];
    const href = /href="([^"]*)"/.exec(tag)?.[1];
    expect(srcset ?? href).toBeTruthy();
    expect(root).toContain(srcset ? `srcSet="${srcset}"` : `src="${href}"`);
  });

  it("turns the filter form sent without JavaScript into the page's own URL (a typed university by name or short name)", async () => {
    const universities = await json<{ data: { id: number; name: string; abbreviation: string }[] }>(await api("/api/v1/universities/"));
    const first = universities.data[0]!;
    const typed = await api(`/?q=&campus=${encodeURIComponent(first.abbreviation.toLowerCase())}&term=fall&from=&to=&within=&unitType=&gender=&sort=newest&pets=true`, {
      redirect: "manual",
    });
    expect(typed.status).toBe(303);
    expect(typed.headers.get("location")).toBe(`/?term=fall&pets=true&university=${first.id}`);
    const byName = await api(`/?campus=${encodeURIComponent(`${first.abbreviation} · ${first.name}`)}`, { redirect: "manual" });
    expect(byName.headers.get("location")).toBe(`/?university=${first.id}`);
    // Emptied: every university; not a university: the filter is dropped, the rest kept.
    expect((await api("/?campus=&university=2", { redirect: "manual" })).headers.get("location")).toBe("/");
    expect((await api("/?campus=no+such+place&sort=price_asc", { redirect: "manual" })).headers.get("location")).toBe("/?sort=price_asc");
  });

  it("renders the filters of the query string, and a filter never gets another filter's listings", async () => {
    const uni2 = await rendered("/?university=2");
    expect(uni2.root).toContain("Pages studio two");
    expect(uni2.root).not.toContain("Pages loft one");
    expect(JSON.stringify(uni2.query('"browse"')?.queryKey)).toContain('"university_id":"2"');

    const uni1 = await rendered("/?university=1");
    expect(uni1.root).toContain("Pages loft one");
    expect(uni1.root).not.toContain("Pages studio two");
  });

  it("needs no 'unsafe-inline': scripts are files, the JSON data block, and the one theme script allowed by its hash", async () => {
    const { res, html, root } = await rendered("/");
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).not.toContain("unsafe-inline");
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(inline).toEqual([THEME_INIT_SCRIPT]);
    const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(THEME_INIT_SCRIPT));
    expect(csp).toContain(`'sha256-${btoa(String.fromCharCode(...new Uint8Array(hash)))}'`);
    const scripts = (html.match(/<script\b[^>]*>/g) ?? []).filter((tag) => tag !== "<script>");
    for (const tag of scripts) expect(tag).toMatch(/\bsrc="|type="application\/json"/);
    expect(root).not.toMatch(/\sstyle="/);
    expect(root).not.toContain("<template");
  });

  it("keeps a listing's text inside the data block: '<' is escaped, so no title can end the block", async () => {
    const { html, query } = await rendered("/");
    expect(html).not.toContain("</script><script>alert(1)");
    const titles = (query('"browse"')?.state.data as { pages: { data: { title: string }[] }[] }).pages[0]!.data.map((l) => l.title);
    expect(titles).toContain("</script><script>alert(1)</script>");
  });
});

describe("a listing page", () => {
  it("arrives rendered: title, rent, first photo or placeholder, details and the contact card, with its link-preview tags", async () => {
    const page = await rendered("/listing/Pg01");
    expect(page.res.status).toBe(200);
    expect(page.root).toContain("Pages loft one");
    expect(page.root).toContain("$910");
    expect(page.root).toContain(ownerFirstName);
    expect(page.root).toMatch(/<img[^>]+src="[^"]+"/);
    expect(page.html).toContain('<meta property="og:title" content="Pages loft one · $910/month">');
    expect(page.html).toContain("<title>Pages loft one · $910/month · CampusNest</title>");
    expect(page.query('"detail"')?.state.data).toMatchObject({ id: "Pg01", title: "Pages loft one" });
  });

  it("answers 404 with the 'Listing not found' page for an unknown or unreviewed listing", async () => {
    for (const id of ["nope-not-here", "Pg04"]) {
      const page = await rendered(`/listing/${id}`);
      expect(page.res.status).toBe(404);
      expect(page.html).toContain("<title>Listing not found · CampusNest</title>");
      expect(page.root).toContain("Listing not found");
      expect(page.html).not.toContain("og:title");
      // The failure travels with the page, so the browser shows the same thing without asking again.
      expect(page.query('"detail"')?.state).toMatchObject({ status: "error", error: { status: 404 } });
    }
  });

  it("renders the visitor's view even for a request that carries a session (the session lives in the browser)", async () => {
    const owner = await signUp("pages-viewer@ufl.edu");
    const page = await rendered("/listing/Pg01");
    const signedIn = await api("/listing/Pg01", { headers: { Authorization: `Bearer ${owner.access_token}` } });
    expect(await signedIn.text()).toContain("Sign In");
    expect(page.root).toContain("Sign In");
  });
});

describe("edge cache of rendered pages", () => {
  it("serves a visitor's page from the edge cache, and a write to the listing purges it", async () => {
    expect(await (await api("/listing/Pg02")).text()).not.toContain("$1,234");
    const again = await api("/listing/Pg02");
    expect(again.headers.get("x-edge-cache")).toBe("HIT");
    expect(await again.text()).toContain("Pages studio two");
    // A `?back=` variant is rendered each time (only the bare address is purgeable).
    expect((await api("/listing/Pg02?back=%2F")).headers.get("x-edge-cache")).toBe("BYPASS");

    const edit = await api("/api/v1/subleases/Pg02", authed(ownerToken, { method: "PATCH", body: JSON.stringify({ monthly_rent: 1234 }) }));
    expect(edit.status).toBe(200);
    const after = await api("/listing/Pg02");
    expect(after.headers.get("x-edge-cache")).toBe("MISS");
    expect(await after.text()).toContain("$1,234");
  });

  it("keys the home page by its filters: one filter never gets another's page", async () => {
    await api("/?university=2&term=fall");
    const same = await api("/?term=fall&university=2");
    expect(same.headers.get("x-edge-cache")).toBe("HIT");
    const other = await api("/?university=1&term=fall");
    expect(other.headers.get("x-edge-cache")).toBe("MISS");
    expect(await other.text()).not.toContain("Pages studio");
  });

  it("never builds a page from a cached API answer: a listing hidden without a purge here is gone from its next page", async () => {
    await insertListing((await signUp("pages-hidden@ufl.edu")).user.id, "Pg05", { title: "Pages soon hidden" });
    expect((await api("/api/v1/subleases/Pg05")).status).toBe(200);
    // Hidden by a write this data center's cache never heard of (another location, the cron).
    await env.DB.prepare("UPDATE listings SET moderation_status = 'hidden' WHERE id = 'Pg05'").run();
    const page = await rendered("/listing/Pg05");
    expect(page.res.status).toBe(404);
    expect(page.html).not.toContain("Pages soon hidden");
  });

  it("does not share a page that shows a failed read", async () => {
    // A link's unknown value no longer fails the read (the page ignores it), so the read
    // fails here by the listings table being away for a moment.
    await env.DB.prepare("ALTER TABLE listings RENAME TO listings_away").run();
    try {
      const first = await api("/?term=spring");
      expect(first.status).toBe(200);
      expect(first.headers.get("cache-control")).toContain("no-store");
      expect((await api("/?term=spring")).headers.get("x-edge-cache")).not.toBe("HIT");
    } finally {
      await env.DB.prepare("ALTER TABLE listings_away RENAME TO listings").run();
    }
  });

  it("shares the page of a link with unknown values: they are ignored and the results shown", async () => {
    const res = await api("/?university=99999&sort=banana&term=castle");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Some filters in this link were not recognised and are ignored.");
    expect(html).not.toContain("Invalid option");
    expect(html).toContain("Pages studio");
    // The Featured row's query travels in the page too (docs/decisions/006), so hydration does not fetch it.
    expect(html).toContain('"featured"]');
    expect(res.headers.get("cache-control") ?? "").not.toContain("no-store");
  });

  it("keeps one address per listing: another spelling of the id is not cached (its purge would miss it)", async () => {
    expect((await api("/api/v1/subleases/%50g01")).headers.get("x-edge-cache")).toBe("BYPASS");
    expect((await api("/listing/%50g01")).headers.get("x-edge-cache")).toBe("BYPASS");
  });
});
