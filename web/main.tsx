import { hydrate, type DehydratedState } from "@tanstack/react-query";
import { startTransition, StrictMode, useEffect } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import { SSR_DATA_ID } from "@contract/ssr";
import { AppProviders, createQueryClient } from "./app/providers";
import { whenIdle } from "./components/ui/deferred";
import { AppRoutes, preloadPage } from "./app/router";
import { apiErrorFrom } from "./lib/api-client";
import { authStore } from "./lib/auth-store";
import { listingKeys } from "./lib/listings-api";
import { installConsoleCapture } from "./lib/console-capture";
import "./styles.css";

// The developer capsule's console lines, from the first: a few hundred bytes in the first load cost
// less than a chunk of its own loaded when idle (docs/decisions/023), and no early line is missed.
installConsoleCapture();

/** The query cache a server-rendered page was made from (web/app/ssr.tsx), or null for a client-rendered one. */
function serverState(): DehydratedState | null {
  const block = document.getElementById(SSR_DATA_ID);
  if (!block?.textContent) return null;
  try {
    const state = JSON.parse(block.textContent) as DehydratedState;
    // Errors travel as plain JSON: make them ApiErrors again (the pages test `instanceof ApiError`).
    for (const query of state.queries) {
      const error = query.state.error as { status?: unknown; body?: unknown } | null;
      if (error && typeof error.status === "number") query.state.error = apiErrorFrom(error.status, (error.body ?? null) as never);
      // Fresh from this page's load: the edge may serve a page rendered a minute ago, and data read as
      // stale at hydration would be fetched again at once and re-render the first screen (docs/decisions/023).
      if (query.state.status === "success") query.state.dataUpdatedAt = Date.now();
    }
    return state;
  } catch {
    return null;
  }
}

/**
 * The server renders the visitor's view (the session lives in this browser). A visitor's page is
 * hydrated; a signed-in student's is rendered afresh over it (their navbar, hearts, an owner's own
 * listing), from the same data except a listing's detail, which the owner reads in full.
 */
function forSignedIn(state: DehydratedState): DehydratedState {
  const detail = JSON.stringify(listingKeys.detail(undefined).slice(0, 2));
  return { ...state, queries: state.queries.filter((q) => JSON.stringify(q.queryKey.slice(0, 2)) !== detail) };
}

/** Marks <html data-app="ready"> once the tree has committed: from here on the page responds (browser tests wait for it). */
function AppReady() {
  useEffect(() => {
    document.documentElement.dataset.app = "ready";
  }, []);
  return null;
}

async function start() {
  const container = document.getElementById("root")!;
  const state = serverState();
  const signedIn = authStore.get() !== null;
  const queryClient = createQueryClient();
  if (state) {
    hydrate(queryClient, signedIn ? forSignedIn(state) : state);
    // The page's own chunk first (the listing page): hydration then finds it loaded.
    await preloadPage(window.location.pathname).catch(() => {});
  }
  const app = (
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
        <AppReady />
      </AppProviders>
    </StrictMode>
  );
  // In a transition: React renders (and hydrates) in slices, yielding to the browser between them,
  // so taps and paints are not held behind one long task on a slow phone.
  startTransition(() => {
    if (state && !signedIn) hydrateRoot(container, app);
    else createRoot(container).render(app);
  });
  // Installable and offline (docs/decisions/027): the service worker registers once the page has loaded
  // and the browser is idle after the render, never beside the first screen: its install fetches `/` and
  // the files `/` names, which would compete with a listing page's own chunk and hydration (decision 034).
  // Built app only (Vite's dev server serves modules).
  if (import.meta.env.PROD && "serviceWorker" in navigator) whenIdle(() => void navigator.serviceWorker.register("/sw.js").catch(() => undefined));
}

void start();
