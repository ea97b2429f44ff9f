/**
 * A student's active deals kept on this device, readable offline (docs/decisions/042): the deal (its
 * terms, address, receipt and the other person's names), the agreement's text and its signed PDF.
 * Kept in one Cache Storage cache, each entry under the signed-in account's id, written only from an
 * answer the API gave that account; read back only for that account, only when the API cannot be
 * reached; dropped when the deal ends or its stay is over, and all of it on sign-out (auth-store).
 * The service worker never touches the API (decision 027): these copies are the app's own.
 */
import type { Deal } from "@contract/deals";
import { ApiError } from "./api-client";
import { authStore, SAVED_DEALS_CACHE } from "./auth-store";
import { isOffline, OFFLINE_NOT_SAVED } from "./online";

/** A deal is kept from acceptance (its full address) until its stay is over, unless it ends unpaid or refunded. */
const KEPT_STATUSES: ReadonlySet<Deal["status"]> = new Set(["accepted", "signed", "paid", "moved_in", "released", "disputed"]);

/** Today on this device, YYYY-MM-DD. */
const localToday = (now = new Date()) => `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;

export const keptOffline = (deal: Deal, now = new Date()) => KEPT_STATUSES.has(deal.status) && deal.move_out >= localToday(now);

/** What a deal keeps: the deal itself, the agreement's text, the signed PDF. */
export type SavedPart = "deal" | "agreement" | "agreement.pdf";
const PARTS: SavedPart[] = ["deal", "agreement", "agreement.pdf"];

/** Read offline and never saved here: says so plainly (not "Something went wrong"), and is not retried. */
export class NotSavedOffline extends ApiError {
  override name = "NotSavedOffline";
  constructor(message = OFFLINE_NOT_SAVED) {
    super(0, message);
  }
}

const SAVED_AT = "x-saved-at";
/** The version a saved agreement or PDF is of (the deal's agreement SHA-256): a newer one is fetched again. */
const VERSION = "x-agreement-sha256";

const entryOf = (owner: string, dealId: string, part: SavedPart) => `/saved-deals/${encodeURIComponent(owner)}/${encodeURIComponent(dealId)}/${part}`;

/** Whether this browser can keep anything (Cache Storage: secure contexts only). */
export const canSave = () => typeof caches !== "undefined";

const openCache = () => (canSave() ? caches.open(SAVED_DEALS_CACHE).catch(() => null) : Promise.resolve(null));

/** When the copy shown of each entry was saved, for the entries last answered from this device. */
const shownFromDevice = new Map<string, string>();

/** When the deal shown was saved on this device (ISO), or null when it came from the API. */
export function dealSavedAt(dealId: string): string | null {
  const owner = authStore.get()?.user.id;
  return owner ? (shownFromDevice.get(entryOf(owner, dealId, "deal")) ?? null) : null;
}

/** The service worker's cache of the app's hashed files (web/public/sw.js ASSETS). */
const ASSETS_CACHE = "assets-v1";

/**
 * Keeps the code this page runs (its hashed scripts and styles, as loaded so far) in the worker's
 * assets cache: on a first visit the page loaded before the worker was there to keep them, and offline
 * the deal page would have no code to render with.
 */
export async function keepPageCode(): Promise<void> {
  if (!canSave() || typeof performance === "undefined") return;
  const cache = await caches.open(ASSETS_CACHE).catch(() => null);
  if (!cache) return;
  const files = new Set(
    performance
      .getEntriesByType("resource")
      .map((entry) => new URL(entry.name, window.location.href))
      .filter((url) => url.origin === window.location.origin && url.pathname.startsWith("/assets/"))
      .map((url) => url.pathname),
  );
  for (const file of files) if (!(await cache.match(file))) await cache.add(file).catch(() => undefined);
}

/** Keeps one answer the API gave `owner` (a deal listed, read or its agreement). */
export async function saveCopy(owner: string, dealId: string, part: SavedPart, value: unknown, version: string | null = null) {
  const cache = await openCache();
  // Signed out (or another account) meanwhile: nothing of the earlier session is written after its end.
  if (!cache || authStore.get()?.user.id !== owner) return;
  const headers = new Headers({ [SAVED_AT]: new Date().toISOString() });
  if (version) headers.set(VERSION, version);
  const body = part === "agreement.pdf" ? (value as Blob) : JSON.stringify(value);
  await cache.put(entryOf(owner, dealId, part), new Response(body, { headers })).catch(() => undefined);
}

/** Forgets what this device kept of one deal (it ended, or is no longer the account's to see). */
export async function forgetDeal(owner: string, dealId: string) {
  const cache = await openCache();
  if (!cache) return;
  await Promise.all(PARTS.map((part) => cache.delete(entryOf(owner, dealId, part)).catch(() => false)));
}

/** Whether this device holds the part of a deal for its current agreement version. */
export async function isSaved(owner: string, dealId: string, part: SavedPart, version: string | null): Promise<boolean> {
  const hit = await (await openCache())?.match(entryOf(owner, dealId, part));
  return !!hit && (version === null || hit.headers.get(VERSION) === version);
}

export interface KeptRead<T> {
  dealId: string;
  part: SavedPart;
  read: () => Promise<T>;
  /** Whether the answer is kept: false also forgets what was kept of the deal. */
  keep: (value: T) => boolean;
  /** The agreement version the answer is of, saved with it. */
  version?: string | null;
  /** Said when offline with nothing saved. */
  notSaved?: string;
}

/**
 * The API's answer, kept on this device when `keep` says so; when the API cannot be reached (offline,
 * or the server unreachable), the copy this account kept, else NotSavedOffline while offline.
 */
export async function keptRead<T>({ dealId, part, read, keep, version = null, notSaved }: KeptRead<T>): Promise<T> {
  const owner = authStore.get()?.user.id;
  if (!owner) return read();
  const entry = entryOf(owner, dealId, part);
  let value: T;
  try {
    value = await read();
  } catch (err) {
    if (!(err instanceof ApiError && err.isNetworkError)) {
      // The deal is gone or no longer this account's: nothing of it stays on the device.
      if (err instanceof ApiError && (err.status === 404 || err.status === 403)) await forgetDeal(owner, dealId);
      throw err;
    }
    const saved = await (await openCache())?.match(entry);
    if (saved) {
      const copy = (part === "agreement.pdf" ? await saved.blob() : await saved.json()) as T;
      if (part !== "deal" || keptOffline(copy as Deal)) {
        shownFromDevice.set(entry, saved.headers.get(SAVED_AT) ?? "");
        return copy;
      }
      await forgetDeal(owner, dealId);
    }
    throw isOffline() ? new NotSavedOffline(notSaved) : err;
  }
  shownFromDevice.delete(entry);
  if (keep(value)) await saveCopy(owner, dealId, part, value, version);
  else if (part === "deal") await forgetDeal(owner, dealId);
  return value;
}
