import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { describe, expect, it, vi } from "vitest";
import type { PublicListing } from "@contract/listings";
import { createQueryClient } from "../../../web/app/providers";
import { ListingCard } from "../../../web/components/listing-card";
import {
  CARD_IMAGE_SIZES,
  Carousel,
  LISTING_IMAGE_SIZES,
  PLACEHOLDER_IMAGE,
  photoAttributes,
} from "../../../web/components/ui/carousel";
import { deferred } from "../../../web/components/ui/deferred";
import { ToastProvider } from "../../../web/components/ui/toast";
import { Gallery, ListingPhoto } from "../../../web/features/listing/components/gallery";
import { ThemeProvider } from "../../../web/lib/theme";
import { fakeApi, makeOwnerListing, notFound, renderApp } from "../render";

const full = (i: number, n = 0) => `/api/v1/images/listings/p${i}-${n}.jpg`;
const thumb = (i: number, n = 0) => `/api/v1/images/listings/p${i}-${n}.thumb.jpg`;

function makeListing(i: number, overrides: Partial<PublicListing> = {}): PublicListing {
  return makeOwnerListing({
    id: `l${i}`,
    title: `Listing ${i}`,
    pictures: [full(i), full(i, 1)],
    thumbnails: [thumb(i), thumb(i, 1)],
    ...overrides,
  });
}

/** Cards as a list renders them: the first with `priority` when `firstIsPriority`. */
function renderCards(listings: PublicListing[], firstIsPriority: boolean) {
  fakeApi();
  const router = createMemoryRouter([
    {
      path: "/",
      element: (
        <div className="listing-grid">
          {listings.map((l, i) => (
            <ListingCard key={l.id} listing={l} back="/" priority={firstIsPriority && i === 0} />
          ))}
        </div>
      ),
    },
  ]);
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <ThemeProvider>
        <ToastProvider>
          <RouterProvider router={router} />
        </ToastProvider>
      </ThemeProvider>
    </QueryClientProvider>,
  );
}

const cardImage = (title: string) => within(screen.getByRole("group", { name: new RegExp(`^${title}: photo`) })).getByRole("img");

describe("listing card images", () => {
  it("the first card's photo is eager and high priority, every other card's is lazy; all carry the thumbnail's srcset, sizes, width and height", () => {
    renderCards([makeListing(1), makeListing(2), makeListing(3)], true);
    const first = cardImage("Listing 1");
    expect(first).toHaveAttribute("loading", "eager");
    expect(first).toHaveAttribute("fetchpriority", "high");
    expect(first).not.toHaveAttribute("decoding");
    for (const title of ["Listing 2", "Listing 3"]) {
      const img = cardImage(title);
      expect(img).toHaveAttribute("loading", "lazy");
      expect(img).toHaveAttribute("decoding", "async");
      expect(img).not.toHaveAttribute("fetchpriority");
    }
    [1, 2, 3].forEach((i) => {
      const img = cardImage(`Listing ${i}`);
      // The thumbnail only, on every screen: a card is never wider than it (a phone at 2-3x would
      // otherwise pick the 1920 px photo for every card).
      expect(img).toHaveAttribute("src", thumb(i));
      expect(img).toHaveAttribute("srcset", `${thumb(i)} 480w`);
      expect(img.getAttribute("srcset")).not.toContain(full(i));
      expect(img).toHaveAttribute("sizes", CARD_IMAGE_SIZES);
      expect(img).toHaveAttribute("width", "480");
      expect(img).toHaveAttribute("height", "320");
    });
    expect(CARD_IMAGE_SIZES).toMatch(/^\(max-width: \d+px\) calc\(100vw - 32px\)/);
  });

  it("without priority (favourites and every other list) all cards stay lazy", () => {
    renderCards([makeListing(1), makeListing(2)], false);
    for (const title of ["Listing 1", "Listing 2"]) {
      expect(cardImage(title)).toHaveAttribute("loading", "lazy");
      expect(cardImage(title)).not.toHaveAttribute("fetchpriority");
    }
  });

  it("a listing without photos shows the placeholder at its own size; a broken photo falls back to it without srcset", () => {
    renderCards([makeListing(1, { pictures: [], thumbnails: [] }), makeListing(2)], true);
    const empty = cardImage("Listing 1");
    expect(empty).toHaveAttribute("src", PLACEHOLDER_IMAGE);
    expect(empty).toHaveAttribute("width", "400");
    expect(empty).toHaveAttribute("height", "300");
    expect(empty).not.toHaveAttribute("srcset");
    act(() => cardImage("Listing 2").dispatchEvent(new Event("error")));
    const broken = cardImage("Listing 2");
    expect(broken).toHaveAttribute("src", PLACEHOLDER_IMAGE);
    expect(broken).not.toHaveAttribute("srcset");
    expect(broken).toHaveAttribute("width", "400");
    expect(broken).toHaveAttribute("loading", "lazy");
  });

  it("a listing whose thumbnail is its full photo (no thumbnail made) gets one candidate, no srcset", () => {
    expect(photoAttributes({ full: "/a.jpg", thumbnail: "/a.jpg", sizes: CARD_IMAGE_SIZES })).toEqual({
      loading: "lazy",
      decoding: "async",
      width: 480,
      height: 320,
      src: "/a.jpg",
    });
  });

  it("only the first photo of a priority carousel is eager: the next one is lazy", () => {
    vi.useFakeTimers();
    render(<Carousel images={[full(1), full(1, 1)]} thumbnails={[thumb(1), thumb(1, 1)]} sizes={CARD_IMAGE_SIZES} priority alt="Room" />);
    const group = screen.getByRole("group");
    expect(within(group).getByRole("img")).toHaveAttribute("fetchpriority", "high");
    act(() => group.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true })));
    const second = within(group).getByRole("img");
    expect(second).toHaveAttribute("src", thumb(1, 1));
    expect(second).toHaveAttribute("loading", "lazy");
    expect(second).not.toHaveAttribute("fetchpriority");
  });
});

describe("listing page photos", () => {
  it("the main photo is eager and high priority, sized to the screen with srcset and sizes, width and height", () => {
    render(<ListingPhoto full={full(1)} thumbnail={thumb(1)} alt="Sunny room, photo 1" priority />);
    const img = screen.getByRole("img", { name: "Sunny room, photo 1" });
    expect(img).toHaveAttribute("loading", "eager");
    expect(img).toHaveAttribute("fetchpriority", "high");
    expect(img).toHaveAttribute("srcset", `${thumb(1)} 480w, ${full(1)} 1920w`);
    expect(img).toHaveAttribute("sizes", LISTING_IMAGE_SIZES);
    expect(img).toHaveAttribute("width", "480");
    expect(img).toHaveAttribute("height", "320");
  });

  it("a strip thumbnail is lazy with its size; a broken main photo becomes the placeholder, with its size", () => {
    const { rerender } = render(<ListingPhoto thumbnail={thumb(1, 1)} alt="" />);
    const strip = screen.getByRole("presentation");
    expect(strip).toHaveAttribute("loading", "lazy");
    expect(strip).toHaveAttribute("decoding", "async");
    expect(strip).toHaveAttribute("width", "480");
    expect(strip).toHaveAttribute("height", "320");
    expect(strip).not.toHaveAttribute("srcset");
    rerender(<ListingPhoto full={full(1)} thumbnail={thumb(1)} alt="Main" priority />);
    act(() => screen.getByRole("img", { name: "Main" }).dispatchEvent(new Event("error")));
    const main = screen.getByRole("img", { name: "Main" });
    expect(main).toHaveAttribute("src", PLACEHOLDER_IMAGE);
    expect(main).toHaveAttribute("width", "400");
    expect(main).toHaveAttribute("height", "300");
    expect(main).not.toHaveAttribute("srcset");
    // Another photo starts clean.
    rerender(<ListingPhoto full={full(2)} thumbnail={thumb(2)} alt="Main" priority />);
    expect(screen.getByRole("img", { name: "Main" })).toHaveAttribute("src", thumb(2));
  });

  it("the fullscreen gallery shows the full photo, decoded off the main thread; a broken one becomes the sized placeholder", () => {
    render(<Gallery images={[full(1), full(1, 1)]} title="Sunny room" start={1} onClose={() => {}} />);
    const img = within(screen.getByRole("dialog", { name: "Sunny room photos" })).getByRole("img");
    expect(img).toHaveAttribute("src", full(1, 1));
    expect(img).toHaveAttribute("decoding", "async");
    act(() => img.dispatchEvent(new Event("error")));
    expect(screen.getByRole("img", { name: /photo 2 of 2/ })).toHaveAttribute("width", "400");
  });
});

describe("deferred parts", () => {
  it("renders nothing on the server and while hydrating, then the component once its chunk is there", async () => {
    let resolve!: (c: React.ComponentType<{ label: string }>) => void;
    const Later = deferred(() => new Promise<React.ComponentType<{ label: string }>>((r) => (resolve = r)));
    function Page() {
      return (
        <div>
          <p>Page</p>
          <Later load label="Ready" fallback={<span>Loading part</span>} />
        </div>
      );
    }
    // The fallback is what the server sends while nothing is loaded: both sides render it.
    const html = renderToString(<Page />);
    expect(html).toContain("Loading part");
    const container = document.createElement("div");
    container.innerHTML = html;
    document.body.appendChild(container);
    const errors = vi.spyOn(console, "error");
    const recoverable = vi.fn();
    const root = hydrateRoot(container, <Page />, { onRecoverableError: recoverable });
    await act(async () => {});
    resolve(({ label }) => <button>{label}</button>);
    expect(await within(container).findByRole("button", { name: "Ready" })).toBeInTheDocument();
    expect(recoverable).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
    // Hydrating again once the chunk is cached still starts from the server's markup.
    act(() => root.unmount());
    const again = document.createElement("div");
    again.innerHTML = renderToString(<Page />);
    document.body.appendChild(again);
    const root2 = hydrateRoot(again, <Page />, { onRecoverableError: recoverable });
    await waitFor(() => expect(within(again).getByRole("button", { name: "Ready" })).toBeInTheDocument());
    expect(recoverable).not.toHaveBeenCalled();
    act(() => root2.unmount());
    container.remove();
    again.remove();
  });

  it("a demand part loads when first wanted and stays mounted (its state kept) when no longer wanted", async () => {
    const load = vi.fn(async () => {
      function Counter({ open }: { open: boolean }) {
        const [n, setN] = useState(0);
        return open ? <button onClick={() => setN(n + 1)}>Clicked {n}</button> : null;
      }
      return Counter;
    });
    const Part = deferred(load);
    const { rerender } = render(<Part load={false} open={false} />);
    await act(async () => {});
    expect(load).not.toHaveBeenCalled();
    rerender(<Part load open />);
    (await screen.findByRole("button", { name: "Clicked 0" })).click();
    expect(await screen.findByRole("button", { name: "Clicked 1" })).toBeInTheDocument();
    rerender(<Part load={false} open={false} />);
    rerender(<Part load open />);
    expect(screen.getByRole("button", { name: "Clicked 1" })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("an idle part loads by itself after load (setTimeout where requestIdleCallback is missing); a failed load may be retried", async () => {
    const onError = vi.fn();
    vi.spyOn(console, "error").mockImplementation(() => {});
    let fail = true;
    const load = vi.fn(async () => {
      if (fail) throw new Error("offline");
      return () => <p>Idle part</p>;
    });
    const Part = deferred(load, { when: "idle", onError });
    const first = render(<Part />);
    await waitFor(() => expect(onError).toHaveBeenCalledTimes(1));
    expect(screen.queryByText("Idle part")).toBeNull();
    first.unmount();
    fail = false;
    render(<Part />);
    expect(await screen.findByText("Idle part")).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe("deferred parts of the app shell", () => {
  it("Sign In from the navbar opens the popup (a lazy chunk) with the focus in its email field", async () => {
    fakeApi({ "GET /api/v1/auth/config": notFound, "GET /api/v1/subleases/": notFound, "GET /api/v1/universities/": { data: [] } });
    const user = userEvent.setup();
    renderApp("/");
    await user.click(screen.getByRole("button", { name: "Sign In" }));
    const dialog = await screen.findByRole("dialog", { name: "Sign in" });
    await waitFor(() => expect(within(dialog).getByLabelText("Email")).toHaveFocus());
  });

  it("the feedback pill arrives once the page is idle and opens its form", async () => {
    fakeApi({ "GET /api/v1/subleases/": notFound, "GET /api/v1/universities/": { data: [] } });
    const user = userEvent.setup();
    renderApp("/");
    await user.click(await screen.findByRole("button", { name: "Feedback" }));
    const dialog = await screen.findByRole("dialog", { name: "Send feedback" });
    expect(within(dialog).getByLabelText("Email")).toHaveFocus();
  });

  it("the developer capsule's console shows lines logged after capture is installed", async () => {
    fakeApi();
    const user = userEvent.setup();
    renderApp("/support");
    await user.click(await screen.findByRole("button", { name: "Developer" }));
    await user.click(await screen.findByRole("checkbox", { name: "Show console" }));
    act(() => console.warn("late line"));
    expect(screen.getByRole("region", { name: "Console (last 50 lines)" })).toHaveTextContent("late line");
  });
});
