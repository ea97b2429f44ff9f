import { memo } from "react";
import { Link } from "react-router-dom";
import type { PublicListing } from "@contract/listings";
import { availabilityConfirmedText, formatDistance } from "@contract/constants";
import { formatStay, formatStays, freeStays } from "@contract/dates";
import { allowsGenderPreference } from "@contract/policies";
import { paths } from "../config/paths";
import { formatRent, GENDER_LABELS, termLabel, unitLabel } from "../lib/listings-api";
import { Avatar } from "./ui/avatar";
import { CARD_IMAGE_SIZES, Carousel } from "./ui/carousel";
import { FavoriteButton } from "./favorite-button";

/**
 * What a card shows of a listing: the server render embeds only these fields of the first screen's
 * listings (web/app/ssr.tsx, docs/decisions/023), so a field a card starts to use is added here.
 */
export const CARD_FIELDS = [
  "id",
  "user_id",
  "title",
  "monthly_rent",
  "thumbnails",
  "unit_type",
  "lease_term",
  "available_from",
  "available_to",
  "university_name",
  "university_abbreviation",
  // The street and area (decision 024): the public form on browse, the whole address on the owner's own cards.
  "address",
  "distance_miles",
  // The browse map's pin (docs/decisions/024): an approximate point, never the exact one.
  "approx_point",
  "parking",
  "allow_pets",
  "gender_preference",
  "promoted",
  "availability_confirmed_at",
  // The paid stays (browse and the listing page answer them): the card shows the dates still free (decision 039).
  "taken_stays",
  "user_first_name",
  "user_last_name",
  "user_avatar_url",
] as const satisfies readonly (keyof PublicListing)[];

export type CardListing = Pick<PublicListing, (typeof CARD_FIELDS)[number]>;

/** Free windows a card names before it says "and N more". */
const FREE_SHOWN = 2;

/**
 * The dates a card offers: the listing's stay ("May 20 - Aug 10"), or, once stays of it are paid for,
 * the parts still free ("Free Aug 20 - Sep 1; Oct 1 - Dec 20"); null without dates (docs/decisions/039).
 */
export function cardStay(listing: Pick<CardListing, "available_from" | "available_to" | "taken_stays">): string | null {
  const whole = formatStay(listing.available_from, listing.available_to);
  if (!whole || !listing.taken_stays?.length) return whole;
  const free = freeStays(listing.available_from!, listing.available_to!, listing.taken_stays);
  if (free.length === 0) return "All dates taken";
  if (free.length === 1 && free[0]!.from === listing.available_from && free[0]!.to === listing.available_to) return whole;
  return `Free ${formatStays(free.slice(0, FREE_SHOWN))}${free.length > FREE_SHOWN ? ` and ${free.length - FREE_SHOWN} more` : ""}`;
}

/** The listing cut to its card's fields. */
export const cardOf = (listing: PublicListing): CardListing =>
  Object.fromEntries(CARD_FIELDS.map((field) => [field, listing[field]])) as CardListing;

interface ListingCardProps {
  listing: CardListing;
  back: string;
  /**
   * The first card of the browse grid: its photo is likely the page's largest paint, so it loads
   * eagerly at high priority. Every other card (and every other list) keeps lazy loading.
   */
  priority?: boolean;
}

/**
 * A listing card: photo carousel (thumbnails, full size in srcset), price per month, title, university,
 * street and area, tags, poster. Memoised: the browse page re-renders while it fetches ahead (decision 023), its cards do not.
 */
export const ListingCard = memo(function ListingCard({ listing, back, priority = false }: ListingCardProps) {
  const href = paths.listing(listing.id, back);
  const confirmed = availabilityConfirmedText(listing.availability_confirmed_at);
  const stay = cardStay(listing);
  // "1.2 mi to UF" (docs/decisions/019); nothing when the distance is unknown.
  const distance = formatDistance(listing.distance_miles, listing.university_abbreviation);
  const tags = [
    unitLabel(listing.unit_type),
    termLabel(listing.lease_term),
    // The exact dates (docs/decisions/021): "May 20 - Aug 10", when the owner gave them; the free part of them once stays are paid for.
    ...(stay ? [stay] : []),
    ...(listing.parking ? ["Parking"] : []),
    ...(listing.allow_pets ? ["Pets OK"] : []),
    // A preference shows only on a shared unit (decision 018).
    ...(allowsGenderPreference(listing.unit_type) && listing.gender_preference !== "no_preference" ? [GENDER_LABELS[listing.gender_preference]!] : []),
  ];
  return (
    <article className="listing-card">
      <div className="listing-card-media">
        <Carousel images={listing.thumbnails} thumbnails={listing.thumbnails} thumbnailsOnly sizes={CARD_IMAGE_SIZES} priority={priority} alt={listing.title} />
        {listing.promoted && <span className="promoted-badge">Featured</span>}
        <FavoriteButton listingId={listing.id} ownerId={listing.user_id} visibleToVisitors />
      </div>
      <Link to={href} className="listing-card-body">
        <p className="listing-card-price">
          <strong>{formatRent(listing.monthly_rent)}</strong>
          <span className="muted">/month</span>
        </p>
        <h3 className="listing-card-title">{listing.title}</h3>
        <p className="listing-card-university muted">
          {listing.university_abbreviation} · {listing.university_name}
        </p>
        {listing.address && <p className="listing-card-area muted">{listing.address}</p>}
        {distance && <p className="listing-card-distance">{distance}</p>}
        <ul className="tags" aria-label="Details">
          {tags.map((t) => (
            <li key={t}>{t}</li>
          ))}
        </ul>
        {confirmed && <p className="listing-card-confirmed muted">{confirmed}</p>}
        <p className="listing-card-poster">
          <Avatar src={listing.user_avatar_url} firstName={listing.user_first_name} lastName={listing.user_last_name} size={24} />
          <span>{listing.user_first_name}</span>
        </p>
      </Link>
    </article>
  );
});

export function ListingGridSkeleton({ count = 8 }: { count?: number }) {
  return (
    <div className="listing-grid" aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className="listing-card skeleton">
          <div className="skeleton-media" />
          <div className="skeleton-line" />
          <div className="skeleton-line short" />
        </div>
      ))}
    </div>
  );
}
