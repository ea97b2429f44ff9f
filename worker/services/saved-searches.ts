/**
 * Saved searches with alerts (docs/decisions/020). A search stores the browse URL's query
 * string (canonical). When staff approve a listing, every candidate search is matched by browse's
 * own filters in SQL (browseFilterSql) and a hit is recorded once per search and listing. Hits go out
 * by email at most once per search a day: instant searches as soon as that allows (right after the
 * approval, else from the cron), daily ones when their oldest waiting hit is a day old (the cron,
 * every 15 minutes). A failure here is logged and never undoes an approval.
 */
import { browseApiQuery, toBrowseParams } from "../contract/browse-url";
import { browseQuerySchema, type BrowseQuery } from "../contract/listings";
import {
  canonicalSavedQuery,
  SAVED_SEARCH,
  SAVED_SEARCH_GONE,
  UNDO_NOT_LINK_PAUSE,
  UNDO_TOO_LATE,
  UNSUBSCRIBE_LINK_INVALID,
  type SavedSearch,
  type SavedSearchCreate,
  type SavedSearchPatch,
  type SavedSearchUnsubscribeResponse,
} from "../contract/saved-searches";
import type { Config } from "../env";
import type { Db } from "../db/client";
import {
  candidateSearches,
  countSavedSearches,
  deleteOwnSavedSearch,
  dropHiddenHits,
  dueSearches,
  findOwnSavedSearch,
  findSavedSearch,
  insertSavedSearch,
  markHitsEmailed,
  matchingListings,
  pauseSavedSearchByLink,
  recordHits,
  resumeLinkPause,
  retryAlertLater,
  savedSearchesOf,
  toSavedSearch,
  updateOwnSavedSearch,
  waitingHits,
  type DueSearch,
} from "../db/queries/saved-searches";
import { listingPublicAddress } from "../db/queries/listings";
import { apiError, conflict, databaseErrorCode, isDatabaseError, isUniqueViolation, notFound, validationFailed } from "../lib/errors";
import { newId } from "../lib/ids";
import { log } from "../lib/log";
import { isoNow } from "../lib/time";
import { issuesToErrors } from "../lib/validate";
import { notify } from "./notify";
import { sendNotices, type SavedSearchAlertsMessage } from "./background/messages";
import { signSavedSearchToken, verifySavedSearchToken } from "./tokens";

type Filters = Omit<BrowseQuery, "limit" | "last_evaluated_key">;

/** A saved query's browse filters: the browse URL mapped to the API query and checked by browse's schema. */
export function savedQueryFilters(query: string): { ok: true; filters: Filters; apiQuery: Record<string, string> } | { ok: false; errors: { path: string; message: string }[] } {
  const apiQuery = browseApiQuery(toBrowseParams(new URLSearchParams(query)));
  const parsed = browseQuerySchema.safeParse(apiQuery);
  if (!parsed.success) return { ok: false, errors: issuesToErrors(parsed.error.issues).map((e) => ({ path: `query.${e.path}`, message: e.message })) };
  return { ok: true, filters: parsed.data, apiQuery };
}

/** Canonical query, its filters and university, or 422 naming the problem. */
function readQuery(query: string) {
  const canonical = canonicalSavedQuery(query);
  const read = savedQueryFilters(canonical);
  if (!read.ok) throw validationFailed(read.errors);
  if (!Object.keys(read.apiQuery).some((k) => k !== "sort")) {
    throw validationFailed([{ path: "query", message: "Choose at least one filter (a university, term, price, dates or words) before saving a search." }]);
  }
  return { canonical, universityId: read.filters.university_id ?? null };
}

export async function listSavedSearches(db: Db, userId: string): Promise<SavedSearch[]> {
  return (await savedSearchesOf(db, userId)).map(toSavedSearch);
}

export async function createSavedSearch(db: Db, userId: string, input: SavedSearchCreate): Promise<SavedSearch> {
  const { canonical, universityId } = readQuery(input.query);
  const mine = await savedSearchesOf(db, userId);
  const same = mine.find((s) => s.query === canonical);
  if (same) throw conflict(`You already saved this search as "${same.name}".`);
  if (mine.length >= SAVED_SEARCH.maxPerUser) {
    throw conflict(`You can save up to ${SAVED_SEARCH.maxPerUser} searches. Delete one in your profile to save another.`);
  }
  let row;
  try {
    row = await insertSavedSearch(db, {
      id: newId(),
      userId,
      name: input.name,
      query: canonical,
      universityId,
      alertFrequency: input.alert_frequency,
      createdAt: isoNow(),
    });
  } catch (err) {
    // The same filters saved twice at once: the unique (user_id, query) index lets one through.
    if (!isUniqueViolation(err)) throw err;
    const first = (await savedSearchesOf(db, userId)).find((s) => s.query === canonical);
    throw conflict(first ? `You already saved this search as "${first.name}".` : "You already saved this search.");
  }
  // Two saves at once could pass the cap together: the later one gives way.
  if ((await countSavedSearches(db, userId)) > SAVED_SEARCH.maxPerUser) {
    await deleteOwnSavedSearch(db, userId, row.id);
    throw conflict(`You can save up to ${SAVED_SEARCH.maxPerUser} searches. Delete one in your profile to save another.`);
  }
  return toSavedSearch(row);
}

export async function updateSavedSearch(db: Db, userId: string, id: string, patch: SavedSearchPatch): Promise<SavedSearch> {
  const row = await findOwnSavedSearch(db, userId, id);
  if (!row) throw notFound("Saved search not found");
  const now = isoNow();
  const updated = await updateOwnSavedSearch(db, userId, id, {
    ...(patch.name !== undefined && { name: patch.name }),
    ...(patch.alert_frequency !== undefined && { alertFrequency: patch.alert_frequency }),
    // Paused here, it is the owner's pause (even over the link's): the link's Undo cannot resume it.
    ...(patch.paused !== undefined && { pausedAt: patch.paused ? (row.pausedAt ?? now) : null, pausedBy: patch.paused ? "owner" : null }),
    updatedAt: now,
  });
  if (!updated) throw notFound("Saved search not found");
  return toSavedSearch(updated);
}

export async function deleteSavedSearch(db: Db, userId: string, id: string): Promise<void> {
  const deleted = await deleteOwnSavedSearch(db, userId, id);
  if (!deleted.length) throw notFound("Saved search not found");
}

/**
 * The unsubscribe link (no sign-in): pauses the search's alerts, or (the page's Undo) resumes them, but
 * only a pause the link itself made within the hour: someone holding an old email cannot switch back on
 * alerts the owner paused in the profile (409 saying so).
 */
/** What an unsubscribe link is about (the page names the search before anything changes); nothing changes. */
export async function readUnsubscribeLink(db: Db, config: Config, token: string): Promise<SavedSearchUnsubscribeResponse> {
  const id = await verifySavedSearchToken(config.jwtSecret, token);
  if (!id) throw apiError(400, { detail: UNSUBSCRIBE_LINK_INVALID });
  const row = await findSavedSearch(db, id);
  if (!row) throw notFound(SAVED_SEARCH_GONE);
  return { name: row.name, paused: row.pausedAt !== null };
}

export async function applyUnsubscribeLink(db: Db, config: Config, token: string, paused: boolean, now: number = Date.now()): Promise<SavedSearchUnsubscribeResponse> {
  const id = await verifySavedSearchToken(config.jwtSecret, token);
  if (!id) throw apiError(400, { detail: UNSUBSCRIBE_LINK_INVALID });
  const nowIso = isoNow(now);
  if (paused) {
    const updated = await pauseSavedSearchByLink(db, id, nowIso);
    if (!updated) throw notFound(SAVED_SEARCH_GONE);
    return { name: updated.name, paused: true };
  }
  const resumed = await resumeLinkPause(db, id, isoNow(now - SAVED_SEARCH.undoWithinMs), nowIso);
  if (resumed) return { name: resumed.name, paused: false };
  const row = await findSavedSearch(db, id);
  if (!row) throw notFound(SAVED_SEARCH_GONE);
  // Already on (Undo pressed twice, or resumed in the profile): nothing to do.
  if (row.pausedAt === null) return { name: row.name, paused: false };
  throw conflict(row.pausedBy === "link" ? UNDO_TOO_LATE : UNDO_NOT_LINK_PAUSE);
}

/** Approved listings matched in one pass: one statement per candidate search covers this many listings. */
const MATCH_CHUNK = 1000;

/**
 * Staff approved these listings: their alerts are a message on the notices queue (docs/decisions/037),
 * so an approval (or "Approve all") waits for no matching and no email. Never throws (the approval stands).
 */
export async function alertSavedSearches(db: Db, env: Env, _config: Config, listingIds: string[], now: number = Date.now()): Promise<void> {
  try {
    const ids = [...new Set(listingIds)];
    const messages: SavedSearchAlertsMessage[] = [];
    for (let i = 0; i < ids.length; i += MATCH_CHUNK) messages.push({ type: "saved-search-alerts", id: newId(), listingIds: ids.slice(i, i + MATCH_CHUNK), at: now });
    await sendNotices(db, env, messages);
  } catch (err) {
    logFailure("saved_search_alerts_failed", err);
  }
}

/**
 * The queue's consumer: records a hit for every saved search matching these approved listings, then
 * emails the instant ones when their daily allowance permits. Costs one candidate query, one match
 * statement per candidate search and one insert per matching search (for up to MATCH_CHUNK listings),
 * then the sends: O(searches), however many listings were approved. Rerunnable (a hit is recorded once,
 * an alert claims its allowance first); a failure throws, so the message is retried.
 */
export async function matchSavedSearches(db: Db, env: Env, config: Config, listingIds: string[], now: number): Promise<void> {
  const touched = new Set<string>();
  const filtersOf = new Map<string, Filters | null>();
  for (let i = 0; i < listingIds.length; i += MATCH_CHUNK) {
    const chunk = listingIds.slice(i, i + MATCH_CHUNK);
    const candidates = await candidateSearches(db, chunk);
    if (!candidates.length) continue;
    const parsed = candidates.flatMap((c) => {
      if (!filtersOf.has(c.id)) {
        const read = savedQueryFilters(c.query);
        filtersOf.set(c.id, read.ok ? read.filters : null);
      }
      const filters = filtersOf.get(c.id);
      return filters ? [{ id: c.id, userId: c.user_id, filters }] : [];
    });
    const hits = await matchingListings(db, chunk, parsed);
    await recordHits(db, hits, isoNow(now));
    for (const id of hits.keys()) touched.add(id);
  }
  if (touched.size) await sendSavedSearchAlerts(db, env, config, now, [...touched]);
}

/** A database error's message may carry bound values (addresses, names): only its code is logged. */
function logFailure(event: string, err: unknown) {
  if (isDatabaseError(err)) log.error(event, { code: databaseErrorCode(err) ?? "database" });
  else log.error(event, { message: String(err) });
}

/**
 * At most this many alert emails per run, the approval's included (so an approval request stays
 * bounded); the cron comes back in 15 minutes for the rest.
 */
const SEND_BATCH = 100;

/**
 * Sends the alerts due at `now` (or only those of `only`), at most SEND_BATCH, oldest waiting hit
 * first: see dueSearches for the rule. Returns how many emails went out.
 */
export async function sendSavedSearchAlerts(db: Db, env: Env, config: Config, now: number = Date.now(), only?: string[]): Promise<number> {
  const alertedBefore = isoNow(now - SAVED_SEARCH.alertEveryMs);
  const digestBefore = isoNow(now - SAVED_SEARCH.digestAfterMs);
  let sent = 0;
  for (const search of await dueSearches(db, alertedBefore, digestBefore, SEND_BATCH, only)) {
    try {
      if (await sendOne(db, env, config, search, now, alertedBefore)) sent++;
    } catch (err) {
      log.warn("saved_search_alert_failed", isDatabaseError(err) ? { code: databaseErrorCode(err) ?? "database" } : { message: String(err) });
    }
  }
  return sent;
}

async function sendOne(db: Db, env: Env, config: Config, search: DueSearch, now: number, alertedBefore: string): Promise<boolean> {
  const nowIso = isoNow(now);
  // Notifications off, or a suspended account: nothing is sent, and these hits are never sent later.
  if (!search.email_on_saved_search || search.suspended_at) {
    await markHitsEmailed(db, search.id, nowIso, nowIso);
    return false;
  }
  // Listings no longer public (taken, hidden, deleted, back in review) are not announced.
  await dropHiddenHits(db, search.id);
  const hits = await waitingHits(db, search.id);
  if (!hits.length) return false;
  const base = config.publicBaseUrl;
  const token = await signSavedSearchToken(config.jwtSecret, search.id, SAVED_SEARCH.unsubscribeTokenTtlDays * 86_400, now);
  const shown = hits.slice(0, SAVED_SEARCH.listingsPerEmail).map((h) => ({
    title: h.title,
    monthlyRent: h.monthly_rent,
    // Street and area only, as on the listing page (decision 024).
    area: listingPublicAddress(h),
    url: `${base}/listing/${encodeURIComponent(h.listing_id)}`,
  }));
  const outcome = await notify(
    { db, env, config },
    { userId: search.user_id },
    {
      kind: "saved_search_alert",
      searchId: search.id,
      searchName: search.name,
      listings: shown,
      total: hits.length,
      searchUrl: `${base}/?${search.query}`,
      unsubscribeUrl: `${base}/unsubscribe?token=${encodeURIComponent(token)}`,
      nowIso,
      alertedBefore,
    },
  );
  if (outcome.status === "failed") {
    // The hits stay waiting and the allowance permits again in an hour (not at once: a search whose
    // sends keep failing must not come first in every run and starve the others).
    await retryAlertLater(db, search.id, nowIso, isoNow(now - SAVED_SEARCH.alertEveryMs + SAVED_SEARCH.retryFailedAfterMs));
    throw outcome.error;
  }
  if (outcome.status !== "sent") return false;
  // Exactly what this email covered: a hit recorded while it was being sent waits for the next one.
  await markHitsEmailed(db, search.id, hits.reduce((max, h) => (h.created_at > max ? h.created_at : max), ""), nowIso);
  return true;
}
