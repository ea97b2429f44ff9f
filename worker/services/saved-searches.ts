/**
 * Saved searches with alerts (issue 15; docs/decisions/020). A search stores the browse URL's query
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
  UNSUBSCRIBE_LINK_INVALID,
  type SavedSearch,
  type SavedSearchCreate,
  type SavedSearchPatch,
  type SavedSearchUnsubscribeResponse,
} from "../contract/saved-searches";
import type { Config } from "../env";
import { createDb } from "../db/client";
import {
  candidateSearches,
  claimAlert,
  countSavedSearches,
  deleteOwnSavedSearch,
  dropHiddenHits,
  dueSearches,
  findOwnSavedSearch,
  findSavedSearch,
  insertSavedSearch,
  markHitsEmailed,
  matchingSearches,
  recordHits,
  releaseAlert,
  savedSearchesOf,
  setSavedSearchPaused,
  toSavedSearch,
  updateOwnSavedSearch,
  waitingHits,
  type DueSearch,
} from "../db/queries/saved-searches";
import { apiError, conflict, notFound, validationFailed } from "../lib/errors";
import { newId } from "../lib/ids";
import { log } from "../lib/log";
import { isoNow } from "../lib/time";
import { issuesToErrors } from "../lib/validate";
import { sendEmail } from "./email";
import { savedSearchAlertEmail } from "./email-templates";
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

export async function listSavedSearches(env: Env, userId: string): Promise<SavedSearch[]> {
  return (await savedSearchesOf(createDb(env), userId)).map(toSavedSearch);
}

export async function createSavedSearch(env: Env, userId: string, input: SavedSearchCreate): Promise<SavedSearch> {
  const { canonical, universityId } = readQuery(input.query);
  const db = createDb(env);
  const mine = await savedSearchesOf(db, userId);
  const same = mine.find((s) => s.query === canonical);
  if (same) throw conflict(`You already saved this search as "${same.name}".`);
  if (mine.length >= SAVED_SEARCH.maxPerUser) {
    throw conflict(`You can save up to ${SAVED_SEARCH.maxPerUser} searches. Delete one in your profile to save another.`);
  }
  const row = await insertSavedSearch(db, {
    id: newId(),
    userId,
    name: input.name,
    query: canonical,
    universityId,
    alertFrequency: input.alert_frequency,
    createdAt: isoNow(),
  });
  // Two saves at once could pass the cap together: the later one gives way.
  if ((await countSavedSearches(db, userId)) > SAVED_SEARCH.maxPerUser) {
    await deleteOwnSavedSearch(db, userId, row.id);
    throw conflict(`You can save up to ${SAVED_SEARCH.maxPerUser} searches. Delete one in your profile to save another.`);
  }
  return toSavedSearch(row);
}

export async function updateSavedSearch(env: Env, userId: string, id: string, patch: SavedSearchPatch): Promise<SavedSearch> {
  const db = createDb(env);
  const row = await findOwnSavedSearch(db, userId, id);
  if (!row) throw notFound("Saved search not found");
  const now = isoNow();
  const updated = await updateOwnSavedSearch(db, userId, id, {
    ...(patch.name !== undefined && { name: patch.name }),
    ...(patch.alert_frequency !== undefined && { alertFrequency: patch.alert_frequency }),
    ...(patch.paused !== undefined && { pausedAt: patch.paused ? (row.pausedAt ?? now) : null }),
    updatedAt: now,
  });
  if (!updated) throw notFound("Saved search not found");
  return toSavedSearch(updated);
}

export async function deleteSavedSearch(env: Env, userId: string, id: string): Promise<void> {
  const deleted = await deleteOwnSavedSearch(createDb(env), userId, id);
  if (!deleted.length) throw notFound("Saved search not found");
}

/** The unsubscribe link (no sign-in): pauses the search's alerts, or resumes them (Undo). */
export async function applyUnsubscribeLink(env: Env, config: Config, token: string, paused: boolean): Promise<SavedSearchUnsubscribeResponse> {
  const id = await verifySavedSearchToken(config.jwtSecret, token);
  if (!id) throw apiError(400, { detail: UNSUBSCRIBE_LINK_INVALID });
  const db = createDb(env);
  const row = await findSavedSearch(db, id);
  if (!row) throw notFound(SAVED_SEARCH_GONE);
  const now = isoNow();
  const updated = await setSavedSearchPaused(db, id, paused ? (row.pausedAt ?? now) : null, now);
  if (!updated) throw notFound(SAVED_SEARCH_GONE);
  return { name: updated.name, paused: updated.pausedAt !== null };
}

/**
 * Staff approved these listings: record a hit for every matching saved search, then email the
 * instant ones now when their daily allowance permits. Never throws (the approval stands).
 */
export async function alertSavedSearches(env: Env, config: Config, listingIds: string[], now: number = Date.now()): Promise<void> {
  try {
    const touched = new Set<string>();
    for (const listingId of listingIds) {
      const candidates = await candidateSearches(env.DB, listingId);
      if (!candidates.length) continue;
      const parsed = candidates.flatMap((c) => {
        const read = savedQueryFilters(c.query);
        return read.ok ? [{ id: c.id, filters: read.filters }] : [];
      });
      const matched = await matchingSearches(env.DB, listingId, parsed);
      await recordHits(env.DB, listingId, matched, isoNow(now));
      matched.forEach((id) => touched.add(id));
    }
    if (touched.size) await sendSavedSearchAlerts(env, config, now, [...touched]);
  } catch (err) {
    log.error("saved_search_alerts_failed", { message: String(err) });
  }
}

/** At most this many alert emails per run (the cron comes back in 15 minutes for the rest). */
const SEND_BATCH = 100;

/**
 * Sends every alert due at `now` (or only those of `only`): see dueSearches for the rule. Returns how
 * many emails went out.
 */
export async function sendSavedSearchAlerts(env: Env, config: Config, now: number = Date.now(), only?: string[]): Promise<number> {
  const alertedBefore = isoNow(now - SAVED_SEARCH.alertEveryMs);
  const digestBefore = isoNow(now - SAVED_SEARCH.digestAfterMs);
  let sent = 0;
  for (let i = 0; i < (only?.length ?? 1); i += SEND_BATCH) {
    const due = await dueSearches(env.DB, alertedBefore, digestBefore, SEND_BATCH, only?.slice(i, i + SEND_BATCH));
    for (const search of due) {
      try {
        if (await sendOne(env, config, search, now, alertedBefore)) sent++;
      } catch (err) {
        log.warn("saved_search_alert_failed", { message: String(err) });
      }
    }
  }
  return sent;
}

async function sendOne(env: Env, config: Config, search: DueSearch, now: number, alertedBefore: string): Promise<boolean> {
  const nowIso = isoNow(now);
  // Notifications off, or a suspended account: nothing is sent, and these hits are never sent later.
  if (!search.email_on_saved_search || search.suspended_at) {
    await markHitsEmailed(env.DB, search.id, nowIso, nowIso);
    return false;
  }
  // Listings no longer public (taken, hidden, deleted, back in review) are not announced.
  await dropHiddenHits(env.DB, search.id);
  const hits = await waitingHits(env.DB, search.id);
  if (!hits.length) return false;
  if (!(await claimAlert(env.DB, search.id, nowIso, alertedBefore))) return false;
  const base = config.publicBaseUrl;
  const token = await signSavedSearchToken(config.jwtSecret, search.id, SAVED_SEARCH.unsubscribeTokenTtlDays * 86_400, now);
  const shown = hits.slice(0, SAVED_SEARCH.listingsPerEmail).map((h) => ({
    title: h.title,
    monthlyRent: h.monthly_rent,
    url: `${base}/listing/${encodeURIComponent(h.listing_id)}`,
  }));
  const message = savedSearchAlertEmail(
    search.email,
    search.first_name,
    search.name,
    shown,
    hits.length,
    `${base}/?${search.query}`,
    `${base}/unsubscribe?token=${encodeURIComponent(token)}`,
  );
  try {
    await sendEmail(env, config, message);
  } catch (err) {
    // The hits stay waiting and the allowance is given back: the next cron run tries again.
    await releaseAlert(env.DB, search.id, nowIso, search.last_alert_at);
    throw err;
  }
  // Exactly what this email covered: a hit recorded while it was being sent waits for the next one.
  await markHitsEmailed(env.DB, search.id, hits.reduce((max, h) => (h.created_at > max ? h.created_at : max), ""), nowIso);
  return true;
}
