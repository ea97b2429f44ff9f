import { useEffect, useSyncExternalStore, type ComponentType, type ReactNode } from "react";

/** How long the browser may wait for an idle moment before an idle load runs anyway. */
export const IDLE_TIMEOUT_MS = 3000;
/** Where requestIdleCallback is missing (Safari): this long after load instead. */
export const IDLE_FALLBACK_MS = 200;

/**
 * Runs `callback` once the page has loaded and the browser is idle (requestIdleCallback, else a short
 * timeout). Returns a function that cancels it. Client-only: call it from an effect or an event.
 */
export function whenIdle(callback: () => void, timeout = IDLE_TIMEOUT_MS): () => void {
  let cancel = () => {};
  const schedule = () => {
    if (typeof window.requestIdleCallback === "function") {
      const handle = window.requestIdleCallback(() => callback(), { timeout });
      cancel = () => window.cancelIdleCallback(handle);
    } else {
      const handle = window.setTimeout(callback, IDLE_FALLBACK_MS);
      cancel = () => window.clearTimeout(handle);
    }
  };
  if (document.readyState === "complete") {
    schedule();
    return () => cancel();
  }
  window.addEventListener("load", schedule, { once: true });
  return () => {
    window.removeEventListener("load", schedule);
    cancel();
  };
}

export interface DeferredOptions {
  /**
   * "idle": load by itself once the page is idle after load (things on screen that nobody needs at
   * once, like the feedback pill). "demand" (default): load when a rendered copy gets `load`.
   */
  when?: "idle" | "demand";
  /** Called when the chunk fails to load (offline, new deploy): e.g. close what asked for it, so a new try loads again. */
  onError?: (error: unknown) => void;
}

export type DeferredProps<P> = P & {
  /** For "demand": load now (e.g. the popup was opened). Once loaded the component stays rendered. */
  load?: boolean;
  /** Shown while `load` is on and the chunk is not there yet. Nothing by default. */
  fallback?: ReactNode;
};

export type DeferredComponent<P> = ComponentType<DeferredProps<P>> & {
  /** Starts loading the chunk (on hover, focus, idle); resolves when it is there. */
  preload: () => Promise<void>;
};

/**
 * A component whose code loads later, in its own chunk: `deferred(() => import("./x").then((m) => m.X))`.
 * It renders nothing on the server and during hydration (React uses the server snapshot then, so the
 * markup matches whether or not the chunk is already there), then the real component once its chunk
 * has loaded, with the same props. Loading starts when the page is idle ("idle") or when a copy is
 * rendered with `load` ("demand"); a failed load may be tried again.
 */
export function deferred<P extends object>(load: () => Promise<ComponentType<P>>, options: DeferredOptions = {}): DeferredComponent<P> {
  let component: ComponentType<P> | null = null;
  let pending: Promise<void> | null = null;
  const listeners = new Set<() => void>();

  const preload = (): Promise<void> =>
    (pending ??= load().then(
      (loaded) => {
        component = loaded;
        listeners.forEach((l) => l());
      },
      (error: unknown) => {
        pending = null;
        throw error;
      },
    ));
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };
  const start = () => {
    preload().catch((error: unknown) => {
      console.error("Failed to load a part of the page", error);
      options.onError?.(error);
    });
  };

  function Deferred({ load: wanted = false, fallback = null, ...props }: DeferredProps<P>) {
    const Component = useSyncExternalStore(
      subscribe,
      () => component,
      () => null,
    );
    const idle = options.when === "idle";
    useEffect(() => {
      if (component) return;
      if (idle) return whenIdle(start);
      if (wanted) start();
    }, [idle, wanted]);
    if (Component) return <Component {...(props as P)} />;
    return wanted ? fallback : null;
  }
  return Object.assign(Deferred, { preload });
}
