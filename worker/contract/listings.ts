import { visibleText, z } from "./zod";
import { BROWSE_SORTS, PROMOTED_MODES, SEARCH_MAX } from "./browse-url";
import { DISTANCE, GENDER_PREFERENCES, isIsoDate, LEASE_TERMS, LISTING_STATUSES, PAGE_SIZES, UNIT_TYPES, type ListingStatus } from "./constants";
import { LIMITS } from "./limits";

/** The product's client sends parking/allow_pets as the strings "true"/"false"; booleans are accepted too. */
const flag = z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]);

const LISTING_IMAGE_URL = /^\/api\/v1\/images\/listings\/[A-Za-z0-9_-]+\.(jpg|png|webp|gif)$/;

/** A calendar date, `YYYY-MM-DD`. */
const isoDate = (label: string) => z.string(`${label} must be a date`).refine(isIsoDate, `${label} must be a date written YYYY-MM-DD`);

/**
 * Exact dates (docs/decisions/021) go together and in order: both or neither, the first before the second. For
 * a listing the dates it is available; for browse the stay someone needs. `from`/`to` name the fields.
 */
export function checkDateRange(
  value: Record<string, unknown>,
  ctx: { addIssue: (issue: { code: "custom"; message: string; path: string[] }) => void },
  names = { from: "available_from", to: "available_to" },
  labels = { from: "Available from", to: "Available to" },
) {
  const from = value[names.from];
  const to = value[names.to];
  const given = (v: unknown) => v !== undefined && v !== null && v !== "";
  if (given(from) && !given(to)) ctx.addIssue({ code: "custom", message: `Please also give "${labels.to}" (both dates or neither)`, path: [names.to] });
  else if (!given(from) && given(to)) ctx.addIssue({ code: "custom", message: `Please also give "${labels.from}" (both dates or neither)`, path: [names.from] });
  else if (typeof from === "string" && typeof to === "string" && isIsoDate(from) && isIsoDate(to) && from >= to)
    ctx.addIssue({ code: "custom", message: `"${labels.to}" must be after "${labels.from}"`, path: [names.to] });
}

/**
 * GET geo/autocomplete?q=&university_id=&session=: `{ data: AddressSuggestion[] }`, up to 5. A
 * suggestion with coordinates carries `location_token`, which a listing's create or edit sends with
 * them (docs/decisions/019). One without coordinates but with `place_id` (Google) is resolved with
 * GET geo/place before it is used. `session` is the client's token for one address-typing session (a
 * UUID), sent with every autocomplete call of the session and with the resolve.
 */
export interface AddressSuggestion {
  description: string;
  lat: number | null;
  lng: number | null;
  location_token?: string;
  place_id?: string;
}

/**
 * GET geo/place?place_id=&session=: `{ data: ResolvedPlace }`, a suggestion's place with coordinates
 * and their token; 404 when the geocoder does not know the place, 502 when it did not answer. The
 * description is the geocoder's address for the place: the address the listing keeps.
 */
export interface ResolvedPlace {
  description: string;
  lat: number;
  lng: number;
  location_token: string;
}

/** A coordinate in degrees within [-max, max]; null clears it on an edit. */
const coordinate = (label: string, max: number) =>
  z
    .number(`${label} must be a number`)
    .min(-max, `${label} must be between -${max} and ${max}`)
    .max(max, `${label} must be between -${max} and ${max}`);

/**
 * Where the place is (docs/decisions/019), as the address autocomplete gave it: both coordinates or neither
 * (null counts as neither). Never guessed: without them the listing has no distance to campus.
 */
export function checkCoordinates(value: Record<string, unknown>, ctx: { addIssue: (issue: { code: "custom"; message: string; path: string[] }) => void }) {
  const given = (v: unknown) => v !== undefined && v !== null;
  if (given(value.latitude) && !given(value.longitude))
    ctx.addIssue({ code: "custom", message: 'Please also give "longitude" (both coordinates or neither)', path: ["longitude"] });
  else if (!given(value.latitude) && given(value.longitude))
    ctx.addIssue({ code: "custom", message: 'Please also give "latitude" (both coordinates or neither)', path: ["latitude"] });
}

/** A listing's fields, without defaults (a PATCH must never fill in what the owner did not send). */
const listingFields = {
  title: visibleText().min(1, "Title is required").max(LIMITS.titleMaxApi, `Title must be at most ${LIMITS.titleMaxApi} characters`),
  description: visibleText({ multiline: true })
    .min(1, "Description is required")
    .max(LIMITS.descriptionMaxApi, `Description must be at most ${LIMITS.descriptionMaxApi} characters`),
  unit_type: z.enum(UNIT_TYPES, "Please choose a unit type"),
  monthly_rent: z.coerce.number("Monthly rent must be a number").int("Monthly rent must be a whole number of dollars").min(LIMITS.minRent, "Monthly rent must be at least 1").max(100_000, "Monthly rent looks too high"),
  address: visibleText().min(1, "Address is required").max(LIMITS.addressMax, `Address must be at most ${LIMITS.addressMax} characters`),
  lease_term: z.enum(LEASE_TERMS, "Please choose a lease term"),
  /** The exact stay offered (docs/decisions/021): optional, both or neither (null clears them on an edit). */
  available_from: isoDate("Available from").nullable().optional(),
  available_to: isoDate("Available to").nullable().optional(),
  /** Where the place is (docs/decisions/019): both or neither; null clears them on an edit. Never shown publicly. */
  latitude: coordinate("Latitude", 90).nullable().optional(),
  longitude: coordinate("Longitude", 180).nullable().optional(),
  /**
   * The picked suggestion's `location_token` (GET geo/autocomplete): required with coordinates, made
   * for exactly this address (the stored one when an edit leaves it) and these coordinates. Clearing
   * them (nulls) needs none.
   */
  location_token: z.string("location_token must be a string").max(200, "location_token is not a token from the address suggestions").nullable().optional(),
  university_id: z.coerce.number().int().positive("Please choose a university"),
  parking: flag,
  allow_pets: flag,
  gender_preference: z.enum(GENDER_PREFERENCES),
  pictures: z
    .array(z.string().regex(LISTING_IMAGE_URL, "Photos must be uploaded to CampusNest first"))
    .min(1, "Please upload at least one photo")
    .max(LIMITS.photosPerListing, `Maximum ${LIMITS.photosPerListing} photos allowed`),
};

/** The create body's fields (forms.ts derives the listing form from these), without the cross-field date rule. */
export const listingInputFields = z.object({
  ...listingFields,
  parking: flag.default(false),
  allow_pets: flag.default(false),
  gender_preference: z.enum(GENDER_PREFERENCES).default("no_preference"),
});
export const listingInputSchema = listingInputFields.superRefine((v, ctx) => {
  checkDateRange(v, ctx);
  checkCoordinates(v, ctx);
});
export type ListingInput = z.infer<typeof listingInputSchema>;

export const listingPatchSchema = z
  .object(listingFields)
  .partial()
  .extend({ status: z.enum(LISTING_STATUSES).optional() })
  .superRefine((v, ctx) => {
    checkDateRange(v, ctx);
    checkCoordinates(v, ctx);
  });

/** distance: closest to the listing's campus first, unknown distances last (docs/decisions/019). */
export const SORTS = BROWSE_SORTS;
export type Sort = (typeof SORTS)[number];

/** The order a browse walks: relevance needs words to rank by. */
const sortOf = (sort: Sort | undefined, q: string | undefined): Sort => {
  const words = !!q && /[\p{L}\p{N}]/u.test(q);
  if (!sort) return words ? "relevance" : "newest";
  return sort === "relevance" && !words ? "newest" : sort;
};

const boolParam = z.enum(["true", "false"]).transform((v) => v === "true");
export const browseQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(PAGE_SIZES.browseServerMax).default(PAGE_SIZES.browseServer),
  last_evaluated_key: z.string().max(500).optional(),
  university_id: z.coerce.number().int().positive().optional(),
  lease_term: z.enum(LEASE_TERMS).optional(),
  unit_type: z.enum(UNIT_TYPES).optional(),
  parking: boolParam.optional(),
  allow_pets: boolParam.optional(),
  gender_preference: z.enum(GENDER_PREFERENCES).optional(),
  min_rent: z.coerce.number().int().min(0).optional(),
  max_rent: z.coerce.number().int().min(0).optional(),
  q: z.string().trim().max(SEARCH_MAX).optional(),
  /** The stay needed (docs/decisions/021): listings available for all of it. Both or neither, from before to. */
  available_from: isoDate("available_from").optional(),
  available_to: isoDate("available_to").optional(),
  /** Listings at most this many miles from their campus (docs/decisions/019); one without a distance never matches. */
  within_miles: z.coerce
    .number("within_miles must be a number of miles")
    .min(DISTANCE.withinMinMiles, `within_miles must be between ${DISTANCE.withinMinMiles} and ${DISTANCE.withinMaxMiles} miles`)
    .max(DISTANCE.withinMaxMiles, `within_miles must be between ${DISTANCE.withinMinMiles} and ${DISTANCE.withinMaxMiles} miles`)
    .optional(),
  /** Unset: by relevance when searching words, else newest first; relevance without words is newest (docs/decisions/006). */
  sort: z.enum(SORTS).optional(),
  /**
   * Listings promoted now (docs/decisions/006): first, then the rest (the default); only them
   * (the browse page's Featured row); or in_order, in their place in the sort's order.
   */
  promoted: z.enum(PROMOTED_MODES).default("first"),
})
  .superRefine((v, ctx) => checkDateRange(v, ctx, undefined, { from: "available_from", to: "available_to" }))
  .transform((v) => ({ ...v, sort: sortOf(v.sort, v.q) }));
export type BrowseQuery = z.infer<typeof browseQuerySchema>;

/** A listing as anyone may see it (browse, detail, favourites). Never review notes or payment ids. */
export interface PublicListing {
  id: string;
  user_id: string;
  title: string;
  description: string;
  unit_type: string;
  /**
   * The street and area without house number or unit (contract/address.ts publicAddress, decision
   * 024), e.g. "Bleecker St, New York, NY 10003"; the owner's and staff's view has it as entered.
   */
  address: string;
  monthly_rent: number;
  /** Full-size photo URLs, primary first. */
  pictures: string[];
  /** Small card-size versions, same order (the full URL where no thumbnail exists). */
  thumbnails: string[];
  lease_term: string;
  /** The exact stay offered, `YYYY-MM-DD` (docs/decisions/021); null on listings without dates. */
  available_from: string | null;
  available_to: string | null;
  university_id: number;
  university_name: string;
  university_abbreviation: string;
  /**
   * Miles from the place to its university's campus, to 0.1 (docs/decisions/019); null when the listing or the
   * campus has no coordinates. The listing's own coordinates are never public (the owner's view has them).
   */
  distance_miles: number | null;
  /**
   * Where to show the place on a map (docs/decisions/024): `[lat, lng]` within about 200 m of it, never its
   * exact coordinates (worker/lib/approximate-point.ts, docs/decisions/024); the same on every read.
   * Null when the listing has no coordinates. The owner's and staff's view also has the exact ones.
   */
  approx_point: [number, number] | null;
  parking: boolean;
  allow_pets: boolean;
  gender_preference: string;
  created_at: string;
  updated_at: string | null;
  verification_status: "pending" | "approved" | "rejected";
  /** The owner's own state ("paused": set by the freshness check, not by the owner). */
  status: ListingStatus;
  /** Staff's state: a hidden listing is public to nobody, whatever its owner sets. */
  /** suspended: the owner's account is suspended (docs/decisions/015); public to nobody, like hidden. */
  moderation_status: "visible" | "hidden" | "suspended";
  promoted: boolean;
  /** When the owner last said the place is still available (creation counts). */
  availability_confirmed_at: string | null;
  promotion_start: string | null;
  promotion_end: string | null;
  days_remaining: number;
  auto_renew: boolean;
  user_first_name: string;
  user_last_name: string;
  user_avatar_url: string | null;
  /**
   * The stays sold through CampusNest (paid deals; dates only, no names: docs/decisions/029), oldest first:
   * on browse and the listing page, where a card shows the dates still free (`freeStays`, docs/decisions/039).
   * Absent from the other lists (the owner's own, staff's).
   */
  taken_stays?: TakenStay[];
}

/** A stay a deal paid for: move-in day to move-out day (that day is free for the next move-in). */
export interface TakenStay {
  move_in: string;
  move_out: string;
}

/** A listing as its owner and staff see it: the public fields plus the address as entered, why it was rejected and its subscription. */
export interface OwnerListing extends PublicListing {
  /** The address as entered (the public's `address` is `address_public`). */
  address: string;
  /** What everyone else reads as `address` and what search matches (decision 024). */
  address_public: string;
  /** Where the place is, as the address autocomplete gave it (the edit form keeps them); null when unknown. */
  latitude: number | null;
  longitude: number | null;
  rejection_reason: string | null;
  /** Why it is back in review before staff decide ("Photos match another listing"), or null; the other listing is never named. */
  review_reason: string | null;
  stripe_subscription_id: string | null;
}

/** @deprecated name: say PublicListing or OwnerListing. */
export type Listing = OwnerListing;

export interface Pagination {
  next_token: string | null;
  has_more: boolean;
}

export interface UploadRequest {
  images: { filename: string; content_type: string; image_data: string; thumbnail_data?: string }[];
}
export interface UploadResponse {
  uploaded_files: { url: string; thumbnail_url: string | null; filename: string; size: number }[];
  failed_files: { filename: string; error: string }[];
}
/** One entry of POST upload/multiple-base64 (the route reads the body one entry at a time). */
export const uploadImageSchema = z.object({
  filename: visibleText().min(1, "Each image needs a file name").max(200, "File names must be at most 200 characters"),
  content_type: z.string().max(100).default(""),
  image_data: z.string("Each image needs its data"),
  thumbnail_data: z.string().optional(),
});
export const UPLOAD_MESSAGES = { none: "No images were uploaded successfully", max: `Maximum ${LIMITS.photosPerListing} photos allowed` } as const;
export const uploadRequestSchema = z.object({
  images: z.array(uploadImageSchema).min(1, UPLOAD_MESSAGES.none).max(LIMITS.photosPerListing, UPLOAD_MESSAGES.max),
});

/* ---------- response bodies ---------- */

/** GET subleases: one keyset page of public listings. */
export interface BrowseResponse {
  data: PublicListing[];
  pagination: Pagination;
  meta: { rows_read: number };
}

/** The listing page's extras: the price check's verdict (rent below half the median of similar listings). */
export interface ListingDetailExtras {
  rent_below_typical: boolean;
  /** Stays sold through CampusNest (paid deals; dates only, no names: docs/decisions/029). */
  taken_stays: TakenStay[];
}

/** GET subleases/{id}: the owner reads their own listing, anyone else its public form. */
export interface ListingResponse {
  data: (PublicListing | OwnerListing) & ListingDetailExtras;
}

/** PATCH subleases/{id}: the owner's listing after the edit. */
export interface OwnerListingResponse {
  data: OwnerListing;
}

/** POST subleases. */
export interface CreateListingResponse {
  id: string;
  data: OwnerListing;
}

/** GET users/listings and users/promoted-listings: the caller's own listings. */
export interface OwnerListingsResponse {
  data: OwnerListing[];
}

export interface Favorite {
  listing_id: string;
  created_at: string;
}

/** GET favorites: newest first, keyset pages. */
export interface FavoritesResponse {
  favorites: Favorite[];
  pagination: Pagination;
}

/** POST favorites and DELETE favorites/{listing_id}. */
export interface FavoriteToggleResponse {
  listing_id: string;
  favorited: boolean;
}
