import { DEV_CONSOLE_LINES } from "@contract/constants";

/**
 * Keeps the last 50 console lines for the footer's developer capsule ("show console"). The original
 * console methods still run. main.tsx installs it first thing (docs/decisions/023), so the capsule shows the page's
 * lines from its first moment; the developer panel installs it too, for pages started otherwise (tests).
 */
export interface ConsoleLine {
  level: "log" | "info" | "warn" | "error";
  text: string;
  time: string;
}

let lines: readonly ConsoleLine[] = [];
const listeners = new Set<() => void>();
let installed = false;

function format(args: unknown[]): string {
  return args
    .map((a) => {
      if (typeof a === "string") return a;
      if (a instanceof Error) return `${a.name}: ${a.message}`;
      try {
        return JSON.stringify(a);
      } catch {
        return String(a);
      }
    })
    .join(" ");
}

/** Idempotent: a second call does nothing. */
export function installConsoleCapture() {
  if (installed) return;
  installed = true;
  for (const level of ["log", "info", "warn", "error"] as const) {
    const original = console[level].bind(console);
    console[level] = (...args: unknown[]) => {
      // A new array per line: it is the snapshot useSyncExternalStore compares.
      lines = [...lines, { level, text: format(args), time: new Date().toLocaleTimeString() }].slice(-DEV_CONSOLE_LINES);
      listeners.forEach((l) => l());
      original(...args);
    };
  }
}

export function getConsoleLines(): readonly ConsoleLine[] {
  return lines;
}

export function subscribeConsole(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
