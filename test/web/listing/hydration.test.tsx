/**
 * The listing page as the worker sends it (web/app/ssr.tsx's renderPage), hydrated by the app's own entry
 * (web/main.tsx) on a phone, the form Lighthouse measures (docs/decisions/034): React keeps the server's
 * markup (no mismatch, no recoverable error, the photo is the element the server sent), fetches nothing
 * the page already holds, re-renders after hydration only the parts a phone lays out differently, and
 * formats no date or number with the browser's locale data (its first formatter is tens of milliseconds of
 * one task on a slow phone).
 */
import { act, screen, waitFor, within } from "@testing-library/react";
import { prerender } from "react-dom/static";
import { afterEach, expect, it, vi } from "vitest";
import { SSR_DATA_ID } from "@contract/ssr";
import { callsOf, fakeApi } from "../fake-api";
import { makeOwnerListing } from "../render";

/** Renders of the contact card's checks: a child of the page, so it renders whenever the page does. */
const trustRenders = vi.hoisted(() => ({ count: 0 }));
vi.mock("../../../web/components/ui/trust-checks", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../../web/components/ui/trust-checks")>();
  return {
    ...original,
    TrustChecks: (props: Parameters<typeof original.TrustChecks>[0]) => {
      trustRenders.count++;
      return original.TrustChecks(props);
    },
  };
});

/** The root web/main hydrates: unmounted at the end, so no React work of it runs after this file's jsdom is gone. */
const hydratedRoots = vi.hoisted(() => [] as { unmount(): void }[]);
vi.mock("react-dom/client", async (importOriginal) => {
  const original = await importOriginal<typeof import("react-dom/client")>();
  return {
    ...original,
    hydrateRoot: (...args: Parameters<typeof original.hydrateRoot>) => {
      const root = original.hydrateRoot(...args);
      hydratedRoots.push(root);
      return root;
    },
  };
});

afterEach(() => {
  for (const root of hydratedRoots.splice(0)) act(() => root.unmount());
  vi.unstubAllGlobals();
});

it("hydrates the server's listing page on a phone without a mismatch, a refetch, a whole-page re-render or Intl", async () => {
  // A phone: every max-width query matches (the page's own, and none of the theme's).
  vi.stubGlobal("matchMedia", (query: string) => ({ matches: query.includes("max-width"), media: query, addEventListener() {}, removeEventListener() {} }));
  const listing = makeOwnerListing({
    id: "l1",
    title: "Sunny room",
    monthly_rent: 845,
    pictures: ["/api/v1/images/listings/p1.jpg", "/api/v1/images/listings/p2.jpg"],
    thumbnails: ["/api/v1/images/listings/p1.thumb.jpg", "/api/v1/images/listings/p2.thumb.jpg"],
  });
  const calls = fakeApi({
    "GET /api/v1/subleases/l1": { data: listing },
    "GET /api/v1/users/owner-1": {
      data: { id: "owner-1", first_name: "Jordan", last_name: "Kim", avatar_url: null, university: "UF", created_at: "2025-11-03T12:00:00Z", id_verified: true, school_email_domain: "ufl.edu", response_time: null },
    },
  });
  // (Not toLocaleTimeString: the developer capsule's console capture stamps each console line with it,
  // and this test's shared realm makes React warn, filtered below; the page itself logs nothing.)
  const localeFormatting = [
    vi.spyOn(Date.prototype, "toLocaleDateString"),
    vi.spyOn(Date.prototype, "toLocaleString"),
    vi.spyOn(Number.prototype, "toLocaleString"),
    vi.spyOn(Intl, "DateTimeFormat"),
    vi.spyOn(Intl, "NumberFormat"),
  ];

  // The worker's render: the markup and the query cache it was made from, as services/pages embeds them.
  const { renderPage } = await import("../../../web/app/ssr");
  const page = await renderPage({ url: "https://campusnest.test/listing/l1", version: "test", transport: (url, init) => fetch(url, init) });
  expect(page.status).toBe(200);
  window.history.replaceState(null, "", "/listing/l1");
  document.body.innerHTML = `<div id="root">${page.html}</div><script type="application/json" id="${SSR_DATA_ID}">${JSON.stringify(page.data)}</script>`;
  const served = document.querySelector(".listing-photos-mobile img");
  expect(served).not.toBeNull();
  expect(screen.getByText("Member since November 2025")).toBeInTheDocument();
  const rendersOnServer = trustRenders.count;
  // The server renderer leaves its last context values (the static router's) set on the contexts it
  // rendered, which matters only here, where the browser's React shares its realm: an empty render resets
  // them. (React's development build still warns of two renderers on one context: filtered below.)
  await (await prerender(<></>)).prelude.getReader().read();
  const apiCallsOnServer = calls.length;

  const consoleErrors = vi.spyOn(console, "error");
  const windowErrors: unknown[] = [];
  const onError = (event: ErrorEvent) => windowErrors.push(event.error ?? event.message);
  window.addEventListener("error", onError);
  try {
    // The app's entry, as the browser runs it: it reads the data block and hydrates #root.
    await import("../../../web/main");
    const bar = await screen.findByRole("region", { name: "Rent and contact" });
    await waitFor(() => expect(document.documentElement.dataset.app).toBe("ready"));

    // The phone's parts changed after hydration: the bar holds the one action, the card keeps the favourite.
    expect(within(bar).getByRole("button", { name: "Message" })).toBeInTheDocument();
    expect(screen.getAllByRole("button", { name: "Message" })).toHaveLength(1);
    // The rest is the server's markup, kept: the same photo element, nothing reported.
    expect(document.querySelector(".listing-photos-mobile img")).toBe(served);
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("Sunny room");
    const sharedRealm = /^Detected multiple renderers concurrently rendering the same context provider/;
    expect(consoleErrors.mock.calls.map((args) => String(args[0])).filter((line) => !sharedRealm.test(line))).toEqual([]);
    expect(windowErrors).toEqual([]);
    // The data came in the page: neither the listing nor its owner is fetched again.
    expect(callsOf(calls.slice(apiCallsOnServer), "GET /api/v1/subleases/l1")).toHaveLength(0);
    expect(callsOf(calls.slice(apiCallsOnServer), "GET /api/v1/users/owner-1")).toHaveLength(0);
    // The page rendered once in hydration (twice: StrictMode's development double render) and not again
    // when the phone's width was read: that re-render stays in the bar and the card's action.
    expect(trustRenders.count - rendersOnServer).toBe(2);
    // No date or number went through the browser's locale data, on the server or in the browser.
    for (const spy of localeFormatting) expect(spy).not.toHaveBeenCalled();
    // The entry hydrated (one root, unmounted after the test).
    expect(hydratedRoots).toHaveLength(1);
  } finally {
    window.removeEventListener("error", onError);
  }
});
