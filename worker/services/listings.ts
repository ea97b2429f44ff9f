/**
 * Listings: create (verified users), edit with the re-review rule, delete with photos, and staff's
 * review and corrections. Routes check who is asking; this module does the work.
 */
import { cancelOpenDeals } from "./deals";
import { refuseDeletionWhileMoneyHeld } from "./payments";
import { DEAL_REASONS } from "../contract/deals";
import type { BatchItem } from "drizzle-orm/batch";
import type { z } from "zod";
import { LISTING_CHANGED_DETAIL, type AdminListing, type adminListingEditSchema, type listingReviewSchema } from "../contract/admin";
import type { ListingInput, listingPatchSchema, OwnerListing } from "../contract/listings";
import type { Config } from "../env";
import type { Db } from "../db/client";
import {
  approvePending,
  findListing,
  findOwnerListing,
  insertListing,
  listingsAwaitingReview,
  photoKeysInUse,
  photosOfListing,
  replacePhotos,
  updateListing,
  updateListingForReview,
  nextRevision,
  pendingIfReviewedSince,
  approvedRentIfApproved,
  findStaffListing,
  fillPublicAddress,
  listingsWithoutPublicAddress,
  type ListingRow,
  type PhotoValues,
  type StaffListing,
} from "../db/queries/listings";
import { approvedRentsByGroup, comparablesIn, rentComparables, rentGroupKey } from "../db/queries/price-check";
import { auditIfChanged } from "../db/queries/admin";
import { insertAudit } from "../db/queries/audit";
import { conflict, notFound, validationFailed } from "../lib/errors";
import { allowsGenderPreference, fairGenderPreference } from "../contract/policies";
import { editNeedsReview, isRentFarBelow } from "../contract/owner-rules";
import { publicAddress } from "../contract/address";
import { newId } from "../lib/ids";
import { isoNow } from "../lib/time";
import { notify } from "./notify";
import { alertSavedSearches } from "./saved-searches";
import { deleteAfterStoppingSubscriptions, startPendingPromotion, stopRenewal } from "./promotions";
import { checkUniversity } from "./universities";
import { campusOf } from "../db/queries/universities";
import { distanceToCampus, pointOf, type LatLng } from "../lib/geo-distance";
import { requireLocationToken } from "./geo-token";
import { deleteImages } from "./storage";
import { purgeListingCache } from "./edge-cache";

type ListingPatch = z.infer<typeof listingPatchSchema>;

const keyOf = (url: string) => url.replace(/^\/api\/v1\/images\//, "");
const thumbKeyOf = (key: string) => key.replace(/\.(jpg|png|webp|gif)$/, ".thumb.jpg");

/** Checks that every photo was uploaded by this user (keys carry the uploader's id) and exists; `field` names the input in the 422. */
export async function checkPictures(env: Env, userId: string, pictures: string[], alreadyAttached: Set<string>, field = "pictures"): Promise<PhotoValues[]> {
  const keys = pictures.map(keyOf);
  for (const key of keys) {
    if (alreadyAttached.has(key)) continue;
    if (!key.startsWith(`listings/${userId}_`) || !(await env.IMAGES.head(key))) {
      throw validationFailed([{ path: field, message: "Photos must be uploaded to CampusNest first" }]);
    }
  }
  const thumbs = await Promise.all(keys.map(async (key) => ((await env.IMAGES.head(thumbKeyOf(key))) ? thumbKeyOf(key) : null)));
  return keys.map((key, position) => ({ key, thumbKey: thumbs[position] ?? null, position }));
}

/**
 * Where the place is and its distance to its university's campus (docs/decisions/019), stored on write: null
 * when the place or the campus has no coordinates (nothing is guessed).
 */
async function placeFields(db: Db, universityId: number, place: LatLng | null) {
  const campus = place ? await campusOf(db, universityId) : null;
  return { latitude: place?.latitude ?? null, longitude: place?.longitude ?? null, distanceMiles: distanceToCampus(place, campus) };
}

/** The owner's listing as stored (it exists: the caller just wrote it). */
const loadOwnerListing = async (db: Db, id: string) => (await findOwnerListing(db, id))!;

export async function createListing(db: Db, env: Env, config: Config, userId: string, input: ListingInput): Promise<OwnerListing> {
  await checkUniversity(db, input.university_id);
  // Coordinates only as the address autocomplete gave them for this address (services/geo-token).
  const point = pointOf(input.latitude, input.longitude);
  if (point) await requireLocationToken(config.jwtSecret, input.location_token, input.address, point);
  const photos = await checkPictures(env, userId, input.pictures, new Set());
  const place = await placeFields(db, input.university_id, point);
  const id = newId();
  await db.batch(
    insertListing(
      db,
      {
        id,
        userId,
        universityId: input.university_id,
        title: input.title,
        description: input.description,
        unitType: input.unit_type,
        address: input.address,
        // What the public reads and search matches (decision 024).
        addressPublic: publicAddress(input.address),
        monthlyRent: input.monthly_rent,
        leaseTerm: input.lease_term,
        availableFrom: input.available_from ?? null,
        availableTo: input.available_to ?? null,
        ...place,
        parking: input.parking,
        allowPets: input.allow_pets,
        // Fair preferences (decision 018): a whole unit stores no preference, whatever was sent.
        genderPreference: fairGenderPreference(input.unit_type, input.gender_preference),
        verificationStatus: "pending",
        status: "available",
        createdAt: isoNow(),
        // Fresh listings: creation counts as a confirmation of availability.
        availabilityConfirmedAt: isoNow(),
      },
      photos,
    ),
  );
  return loadOwnerListing(db, id);
}

/** The owner's edit. A change people could be misled by sends an approved listing back to review. */
export async function updateOwnListing(db: Db, env: Env, config: Config, userId: string, row: ListingRow, input: ListingPatch): Promise<OwnerListing> {
  // `row` is the listing as read before this edit (its revision included).
  await checkUniversity(db, input.university_id);
  const current = await photosOfListing(db, row.id);
  const attached = new Set(current.map((p) => p.key));
  const photos = input.pictures ? await checkPictures(env, userId, input.pictures, attached) : null;
  const picturesChanged = !!photos && photos.map((p) => p.key).join() !== current.map((p) => p.key).join();
  // Where the place is (docs/decisions/019): the coordinates sent (null clears them); an address changed without
  // them clears them (never the old address's coordinates); otherwise the stored ones. The distance is
  // recomputed whenever the place or the university changes. Coordinates sent need the suggestion's
  // token for the listing's address after this edit (services/geo-token), so they always follow the
  // address, and coordinates alone do not send a listing back to review: reviewers judge the address
  // (and see the distance). Sending back the stored ones for the stored address changes nothing and
  // needs no token (an edit form opened before tokens existed).
  const addressChanged = input.address !== undefined && input.address !== row.address;
  const coordinatesSent = input.latitude !== undefined || input.longitude !== undefined;
  const point = coordinatesSent ? pointOf(input.latitude, input.longitude) : addressChanged ? null : pointOf(row.latitude, row.longitude);
  const placeChanged = (point?.latitude ?? null) !== (row.latitude ?? null) || (point?.longitude ?? null) !== (row.longitude ?? null);
  if (coordinatesSent && point && (placeChanged || addressChanged))
    await requireLocationToken(config.jwtSecret, input.location_token, input.address ?? row.address, point);
  const universityChanged = input.university_id !== undefined && input.university_id !== row.university_id;
  const place = placeChanged || universityChanged ? await placeFields(db, input.university_id ?? row.university_id, point) : null;
  // A rejected listing goes back to review on any edit but its availability alone: the rejection
  // email promises that saving the fixed listing sends it to the team again. An approved one on a
  // material change (contract/owner-rules editNeedsReview, docs/decisions/015).
  const detailsEdited = Object.keys(input).some((field) => field !== "status");
  const material = row.verification_status !== "rejected" && (await approvedEditNeedsReview(db, row, input, current, photos));
  const backToReview = (row.verification_status === "approved" && material) || (detailsEdited && row.verification_status === "rejected");
  // Read as pending, but staff may approve the version before this edit while it is on its way.
  const reviewMayHaveRaced = row.verification_status === "pending" && material;
  // Fair preferences (decision 018): the unit type after this edit decides. A whole unit stores
  // no_preference, whatever was sent or stored before (an edit from 2x2 to studio drops the preference).
  const genderPreference = allowsGenderPreference(input.unit_type ?? row.unit_type) ? input.gender_preference : "no_preference";
  const statements: BatchItem<"sqlite">[] = [
    updateListing(db, row.id, {
      ...(input.title !== undefined && { title: input.title }),
      ...(input.description !== undefined && { description: input.description }),
      ...(input.unit_type !== undefined && { unitType: input.unit_type }),
      ...(input.monthly_rent !== undefined && { monthlyRent: input.monthly_rent }),
      ...(input.address !== undefined && { address: input.address, addressPublic: publicAddress(input.address) }),
      ...(input.lease_term !== undefined && { leaseTerm: input.lease_term }),
      // Both or neither (the contract's rule); null clears them.
      ...(input.available_from !== undefined && { availableFrom: input.available_from }),
      ...(input.available_to !== undefined && { availableTo: input.available_to }),
      ...(input.university_id !== undefined && { universityId: input.university_id }),
      ...place,
      ...(input.parking !== undefined && { parking: input.parking }),
      ...(input.allow_pets !== undefined && { allowPets: input.allow_pets }),
      ...(genderPreference !== undefined && { genderPreference }),
      ...(input.status !== undefined && { status: input.status }),
      // Marking it available confirms it is (fresh listings).
      ...(input.status === "available" && { availabilityConfirmedAt: isoNow() }),
      ...(backToReview && { verificationStatus: "pending", rejectionReason: null }),
      ...(reviewMayHaveRaced && { verificationStatus: pendingIfReviewedSince(row.revision ?? 0) }),
      // A new version for staff: a review of the version before this edit is refused (409).
      revision: nextRevision,
      updatedAt: isoNow(),
    }),
  ];
  const removedKeys: string[] = [];
  if (photos && picturesChanged) {
    const keep = new Set(photos.map((p) => p.key));
    for (const p of current) if (!keep.has(p.key)) removedKeys.push(p.key, ...(p.thumbKey ? [p.thumbKey] : []));
    statements.push(...replacePhotos(db, row.id, photos));
  }
  await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  await purgeListingCache([row.id]);
  await deleteImages(env.IMAGES, await unreferencedKeys(db, removedKeys));
  // Off the market: its promotion stops renewing as Cancel does (api-contract "Promotions"); available
  // again does not restart it.
  if ((input.status === "taken" || input.status === "hidden") && input.status !== row.status) await stopRenewal({ db, env, config }, row.id, input.status);
  return loadOwnerListing(db, row.id);
}

/**
 * Whether this owner edit of an approved listing is material (contract/owner-rules `editNeedsReview`): compares the
 * listing as staff approved it with the listing after the edit. The price check's comparables are read
 * only when the rent is lowered.
 */
async function approvedEditNeedsReview(
  db: Db,
  row: ListingRow,
  input: ListingPatch,
  currentPhotos: { key: string }[],
  newPhotos: PhotoValues[] | null,
): Promise<boolean> {
  const before = {
    title: row.title,
    description: row.description,
    university_id: row.university_id,
    unit_type: row.unit_type,
    address: row.address,
    monthly_rent: row.monthly_rent,
    photos: currentPhotos.map((p) => p.key),
    approvedRent: row.approved_rent ?? null,
  };
  const after = {
    title: input.title ?? row.title,
    description: input.description ?? row.description,
    university_id: input.university_id ?? row.university_id,
    unit_type: input.unit_type ?? row.unit_type,
    address: input.address ?? row.address,
    monthly_rent: input.monthly_rent ?? row.monthly_rent,
    photos: newPhotos ? newPhotos.map((p) => p.key) : before.photos,
  };
  const comparables = after.monthly_rent < before.monthly_rent ? await rentComparables(db, row.id, after.university_id, after.unit_type) : null;
  return editNeedsReview(before, after, comparables);
}

/** Rows the public-address backfill writes per statement batch, and at most per run (the cron's share). */
const BACKFILL_BATCH = 100;
const BACKFILL_MAX_PER_RUN = 5_000;

/**
 * Stores the public address of listings saved before it existed (migration 0026 leaves them NULL;
 * SQL cannot parse an address, so the worker does it with the same publicAddress as every save).
 * Rerunnable: the cron and the dev seed call it, each run fills up to BACKFILL_MAX_PER_RUN rows and a
 * run with nothing left reads one empty page. Reads compute the same text meanwhile, so no listing
 * reads differently, but search starts finding these by street: the edge cache's generation moves
 * when any row was filled. Returns how many rows it filled.
 */
export async function backfillPublicAddresses(db: Db): Promise<number> {
  let filled = 0;
  while (filled < BACKFILL_MAX_PER_RUN) {
    const rows = await listingsWithoutPublicAddress(db, BACKFILL_BATCH);
    if (!rows.length) break;
    const [first, ...rest] = rows.map((r) => fillPublicAddress(db, r.id, r.address, publicAddress(r.address)));
    const results = await db.batch([first!, ...rest]);
    const changed = results.reduce((n, r) => n + r.length, 0);
    filled += changed;
    // Nothing written (every row edited in between, or a failing row): stop rather than spin.
    if (!changed || rows.length < BACKFILL_BATCH) break;
  }
  if (filled) await purgeListingCache([], db);
  return filled;
}

/** Deletes a listing (photos, favourites by cascade) and then its files. Owners and staff. */
export async function deleteListing(db: Db, env: Env, id: string, by: "owner" | "staff" = "owner") {
  // Money held for a deal of it must be settled first (409; docs/decisions/029).
  await refuseDeletionWhileMoneyHeld(db, { listingId: id });
  // Its open unpaid deals end first, with a reason both parties are told (docs/decisions/026).
  await cancelOpenDeals(db, env, { listingId: id }, DEAL_REASONS.listingDeleted);
  const photos = await photosOfListing(db, id);
  // Its promotion stops renewing first (as Cancel does), and none can become live before the row is gone.
  await deleteAfterStoppingSubscriptions(db, env, { listingId: id }, by);
  await purgeListingCache([id]);
  await deleteImages(env.IMAGES, await unreferencedKeys(db, photos.flatMap((p) => [p.key, p.thumbKey])));
}

/** Of these photo keys, the ones no listing uses any more (demo listings share photos). */
export async function unreferencedKeys(db: Db, keys: (string | null)[]): Promise<string[]> {
  const list = keys.filter((k): k is string => !!k);
  if (!list.length) return [];
  const used = await photoKeysInUse(db, list);
  return list.filter((k) => !used.has(k));
}

/* ---------- staff ---------- */

type Comparables = { count: number; median: number | null };

/** A listing as staff read it: the owner's view with the display aliases staff screens read (price, location), its revision and the price check. */
export function toAdminListing({ listing: l, revision, approvedRent }: StaffListing, comparables: Comparables): AdminListing {
  const farBelow = isRentFarBelow(l.monthly_rent, comparables);
  const median = comparables.median === null ? null : Math.round(comparables.median);
  return {
    ...l,
    price: l.monthly_rent,
    location: l.address,
    rent_check_median: farBelow ? median : null,
    revision,
    price_check: { comparables: comparables.count, median, far_below: farBelow, approved_rent: approvedRent },
  };
}

/* ---------- price check (docs/decisions/015) ---------- */

/** The listing page's verdict: rent below half the median of at least 5 similar approved listings. */
export async function isRentBelowTypical(db: Db, row: Pick<ListingRow, "id" | "university_id" | "unit_type" | "monthly_rent">): Promise<boolean> {
  return isRentFarBelow(row.monthly_rent, await rentComparables(db, row.id, row.university_id, row.unit_type));
}

/**
 * Staff lists with the price check on every listing: one bounded read per (university, unit type) group
 * of the page (price-check.ts), each listing's comparables taken without its own row.
 */
export async function toAdminListingsWithRentCheck(db: Db, list: StaffListing[]): Promise<AdminListing[]> {
  const groups = [...new Map(list.map(({ listing: l }) => [rentGroupKey(l.university_id, l.unit_type), { universityId: l.university_id, unitType: l.unit_type }])).values()];
  const rents = await approvedRentsByGroup(db, groups);
  return list.map((staff) => {
    const l = staff.listing;
    return toAdminListing(staff, comparablesIn(rents.get(rentGroupKey(l.university_id, l.unit_type)) ?? [], staff.rowid));
  });
}

async function loadAdminListing(db: Db, id: string): Promise<AdminListing> {
  const staff = await findStaffListing(db, id);
  if (!staff) throw notFound("Listing not found");
  const l = staff.listing;
  return toAdminListing(staff, await rentComparables(db, l.id, l.university_id, l.unit_type));
}

/**
 * Staff's review of the version they saw (`review.revision`, docs/decisions/015): applied in one batch with its
 * audit entry only if the listing still is that version and not already so decided, moving it to the
 * next revision; so of two decisions made at once exactly one applies and is audited. A listing that
 * moved on answers 409, changing nothing, unless it already has the requested status (a retry, or
 * another reviewer made the same decision): then nothing changes and nothing is sent (changed false).
 * Approval records the approved rent and starts a promotion bought while the listing was pending.
 */
export async function reviewListing(db: Db, env: Env, config: Config, actor: string, id: string, review: z.infer<typeof listingReviewSchema>) {
  const row = await findListing(db, id);
  if (!row) throw notFound("Listing not found");
  const unchanged = async () => ({ changed: false, listing: await loadAdminListing(db, id) });
  if (row.verificationStatus === review.status) return unchanged();
  if (review.revision !== undefined && review.revision !== row.revision) throw conflict(LISTING_CHANGED_DETAIL);
  const now = Date.now();
  const [changed] = await db.batch([
    updateListingForReview(db, id, row.revision, review.status, {
      verificationStatus: review.status,
      rejectionReason: review.status === "rejected" ? review.rejection_reason! : null,
      ...(review.status === "approved" && { approvedRent: row.monthlyRent, ...startPendingPromotion(row.promotionPendingDays, now) }),
      updatedAt: isoNow(now),
    }),
    // Only when the decision above applied (its own statement's change count): one audit entry per decision.
    auditIfChanged(db, actor, `listing_${review.status}`, "listings", id, {
      revision: row.revision,
      ...(review.rejection_reason ? { reason: review.rejection_reason } : {}),
    }),
  ]);
  if (!changed.meta.changes) {
    // Another decision or an edit landed between our read and our write.
    const now = await findListing(db, id);
    if (now?.verificationStatus === review.status) return unchanged();
    throw conflict(LISTING_CHANGED_DETAIL);
  }
  await purgeListingCache([id]);
  await notify({ db, env, config }, { userId: row.userId }, { kind: "listing_review", title: row.title, approved: review.status === "approved", reason: review.rejection_reason ?? null });
  if (review.status === "approved") await alertSavedSearches(db, env, config, [id], now);
  return { changed: true, listing: await loadAdminListing(db, id) };
}

/** Staff's correction of a listing (typo, price, or hiding it): a new revision; a rent staff set on an approved listing is the approved rent. */
export async function editListingByStaff(db: Db, actor: string, id: string, edit: z.infer<typeof adminListingEditSchema>) {
  const [res] = await db.batch([
    updateListing(db, id, {
      ...(edit.title !== undefined && { title: edit.title }),
      ...(edit.description !== undefined && { description: edit.description }),
      ...(edit.monthly_rent !== undefined && { monthlyRent: edit.monthly_rent, approvedRent: approvedRentIfApproved(edit.monthly_rent) }),
      ...(edit.moderation_status !== undefined && { moderationStatus: edit.moderation_status }),
      revision: nextRevision,
      updatedAt: isoNow(),
    }),
    insertAudit(db, actor, "listing_edit", "listings", id, edit),
  ]);
  if (!res.meta.changes) throw notFound("Listing not found");
  await purgeListingCache([id]);
  return loadAdminListing(db, id);
}

/** How many listings "approve all" reads and approves per statement (docs/decisions/038). */
export const APPROVE_ALL_CHUNK = 100;

/**
 * Approves every pending listing (but those the photo check sent to a person), a chunk at a time in
 * the review queue's order, each chunk's approval and its audit entry in one batch; tells each owner
 * and matches saved searches per chunk. `total_listings`: the pending listings it found.
 */
export async function approveAllListings(db: Db, env: Env, config: Config, actor: string) {
  let verified = 0;
  let total = 0;
  for (let after: { createdAt: string; id: string } | null = null; ; ) {
    const pending = await listingsAwaitingReview(db, after, APPROVE_ALL_CHUNK);
    if (!pending.length) break;
    total += pending.length;
    after = pending.at(-1)!;
    const [approved] = await db.batch([
      approvePending(db, pending.map((p) => p.id), isoNow()),
      auditIfChanged(db, actor, "listings_verify_all", "listings", null, { count: pending.length }),
    ]);
    const ids = new Set(approved.map((r) => r.id));
    verified += ids.size;
    if (ids.size) await purgeListingCache(ids);
    for (const p of pending) if (ids.has(p.id)) await notify({ db, env, config }, { userId: p.userId }, { kind: "listing_review", title: p.title, approved: true, reason: null });
    await alertSavedSearches(db, env, config, [...ids]);
    if (pending.length < APPROVE_ALL_CHUNK) break;
  }
  return { verified_count: verified, total_listings: total };
}
