import { ReviewSummaryLine } from "../../../components/ui/review-summary";
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { Link, useLocation, useNavigate, useParams, useSearchParams } from "react-router-dom";
import type { ListingDetailExtras, PublicListing } from "@contract/listings";
import { OWNER_ADDRESS_NOTE, PUBLIC_ADDRESS_NOTE } from "@contract/address";
import { formatDistance } from "@contract/constants";
import { formatStay } from "@contract/dates";
import { REVIEW_TIME, reviewReasonNotice } from "@contract/waits";
import { allowsGenderPreference, canEditListing, PUBLIC_LISTING } from "@contract/policies";
import { messagingRefusalOnScreen } from "@contract/messaging-rules";
import { PageFrame } from "../../../components/layout/page-frame";
import { FavoriteButton } from "../../../components/favorite-button";
import { Avatar } from "../../../components/ui/avatar";
import { Carousel, LISTING_IMAGE_SIZES, PLACEHOLDER_IMAGE } from "../../../components/ui/carousel";
import { PageLoadingInline } from "../../../components/ui/spinner";
import { iconBase } from "../../../components/ui/icons";
import { paths } from "../../../config/paths";
import { ApiError, errorMessage } from "../../../lib/api-client";
import { isOwnerView, useListing } from "../../../lib/listing-detail";
import { formatRent, GENDER_LABELS, termLabel, unitLabel } from "../../../lib/listings-api";
import { usePublicUser } from "../../../lib/public-user-api";
import { TrustChecks } from "../../../components/ui/trust-checks";
import { useSession } from "../../../lib/session";
import { useMediaQuery } from "../../../lib/use-media-query";
import { useSignInHere } from "../../../lib/sign-in-prompt";
import { authStore } from "../../../lib/auth-store";
import { LocationSection } from "../../../components/map/location-section";
import { ReportListing } from "./report-listing";
import { Gallery, ListingPhoto } from "./gallery";
import { AvailabilityConfirmed, BelowTypicalRent, PausedNotice } from "./freshness-notices";

/**
 * Only same-origin paths are followed, so a crafted link cannot send people elsewhere: a path that,
 * decoded, holds a backslash or a control character (`/\evil.com`, `/%09/evil.com`, which browsers
 * read as `//evil.com`) is refused, and what is left must resolve to this origin.
 */
export function safeBack(back: string | null): string {
  if (!back || !back.startsWith("/") || back.startsWith("//")) return paths.home;
  let decoded: string;
  try {
    decoded = decodeURIComponent(back);
  } catch {
    return paths.home;
  }
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(decoded) || decoded.startsWith("//")) return paths.home;
  const base = "https://campusnest.invalid";
  const url = new URL(back, base);
  return url.origin === base ? `${url.pathname}${url.search}${url.hash}` : paths.home;
}

/** The Message button's lock (only this page shows it: not in ui/icons.tsx, which the home page loads). */
const LockIcon = () => (
  <svg {...iconBase} width={16} height={16}>
    <rect x="5" y="11" width="14" height="10" rx="2" />
    <path d="M8 11V7a4 4 0 0 1 8 0v4" />
  </svg>
);

/** Phones, where the rent and contact action move to a bar at the bottom (the same width as in styles.css). */
const PHONE_QUERY = "(max-width: 640px)";

interface ContactActionProps {
  listing: PublicListing;
  isOwner: boolean;
  canMessageOwner: boolean;
  /** Why a signed-in visitor may not message the owner (the messaging rule's words), if they may not. */
  messageRefusal?: string | undefined;
  /** The contact card also offers the favourite button; the phone's bottom bar keeps to one action. */
  favourite?: boolean;
}

/** The one thing to do about a listing: Edit (owner), Message (signed in), or the locked Message (visitors). */
function ContactAction({ listing: l, isOwner, canMessageOwner, messageRefusal, favourite }: ContactActionProps) {
  // A visitor who signs in to message comes back to this listing, not to the home page.
  const signInHere = useSignInHere();
  const navigate = useNavigate();
  // ...and then straight into the conversation with the owner, unless they signed
  // in as the owner themselves: then the listing is theirs and they stay on it.
  const messageAfterSignIn = () =>
    signInHere({
      afterSignIn: () => {
        if (authStore.get()?.user.id !== l.user_id) navigate(paths.messages(l.user_id, l.id), { replace: true });
      },
    });
  if (isOwner) {
    return (
      <Link to={paths.edit(l.id)} className="button button-primary">
        Edit listing
      </Link>
    );
  }
  if (canMessageOwner) {
    return (
      <div className="stack-sm">
        <Link to={paths.messages(l.user_id, l.id)} className="button button-primary">
          Message {l.user_first_name}
        </Link>
        {favourite && <FavoriteButton listingId={l.id} ownerId={l.user_id} large />}
      </div>
    );
  }
  if (messageRefusal) return <p className="muted">{messageRefusal}</p>;
  return (
    <div className="stack-sm">
      <button type="button" className="button button-ghost locked" onClick={messageAfterSignIn}>
        <LockIcon /> Message
      </button>
      <p className="muted">Create an account or sign in to message others</p>
    </div>
  );
}

/*
 * The two parts that differ on phones read the screen's width themselves: the server renders the wider
 * layout, and a phone's re-render after hydration (a synchronous one: useMediaQuery's snapshot changed)
 * then touches these two, not the whole page (docs/decisions/034).
 */

/** The contact card's action: on phones the bottom bar holds it, and the card keeps the favourite alone, so the action is in the tab order and the reading order once. */
function CardAction(props: ContactActionProps) {
  const phone = useMediaQuery(PHONE_QUERY);
  if (!phone) return <ContactAction {...props} favourite />;
  return !props.isOwner && props.canMessageOwner ? <FavoriteButton listingId={props.listing.id} ownerId={props.listing.user_id} large /> : null;
}

/** On phones the contact card is far down the page: the rent and the one action stay in reach, in a bar at the bottom. */
function PhoneBar(props: ContactActionProps) {
  const phone = useMediaQuery(PHONE_QUERY);
  // The page is padded at the bottom while the bar shows, so the bar hides nothing.
  useEffect(() => {
    if (!phone) return;
    document.body.classList.add("has-sticky-bar");
    return () => document.body.classList.remove("has-sticky-bar");
  }, [phone]);
  if (!phone) return null;
  return (
    <div className="listing-sticky-bar" aria-label="Rent and contact" role="region">
      <p className="listing-sticky-rent">
        <strong>{formatRent(props.listing.monthly_rent)}</strong> / month
      </p>
      <ContactAction {...props} />
    </div>
  );
}

/** `requestDeal`: "Request to sublease" for this listing, given by the route (features never import each other). */
export function ListingPage({ requestDeal }: { requestDeal?: (listing: PublicListing & Pick<ListingDetailExtras, "taken_stays">) => ReactNode } = {}) {
  const { id } = useParams();
  const [search] = useSearchParams();
  const back = safeBack(search.get("back"));
  const listing = useListing(id);
  const owner = usePublicUser(listing.data?.user_id);
  const { session } = useSession();
  const [active, setActive] = useState(0);
  const [gallery, setGallery] = useState<number | null>(null);
  const closeGallery = useCallback(() => setGallery(null), []);
  // Opened from within the app: Back is the browser's Back, which lands where the reader was (the
  // same place in the results, scroll restored: docs/decisions/023); opened from outside, the link.
  const location = useLocation();
  const goBack = useNavigate();
  const backLink = (
    <Link
      to={back}
      className="button button-ghost back-button"
      onClick={(e) => {
        if (location.key === "default" || e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        void goBack(-1);
      }}
    >
      ← Back
    </Link>
  );

  if (listing.isPending) {
    return (
      <PageFrame title="Listing" hideHeading>
        {backLink}
        <PageLoadingInline label="Loading listing" />
      </PageFrame>
    );
  }
  if (listing.isError) {
    const missing = listing.error instanceof ApiError && listing.error.status === 404;
    return (
      <PageFrame title={missing ? "Listing not found" : "Listing"} width="narrow">
        <section className="panel empty-state" role="alert">
          <p>{missing ? "This listing may have been taken down or is waiting for review." : errorMessage(listing.error, "Failed to load listing data")}</p>
          <div className="row">
            {backLink}
            {!missing && (
              <button type="button" className="button button-primary" onClick={() => listing.refetch()}>
                Try again
              </button>
            )}
          </div>
        </section>
      </PageFrame>
    );
  }

  const l = listing.data;
  const isOwner = canEditListing(session?.user, l);
  // The messaging rule on what this page knows: a signed-in session is never suspended (its tokens stop
  // working), and blocks are the server's to know (it refuses the send in the same words).
  const refusal = session?.user ? messagingRefusalOnScreen(session.user, l.user_id, l) : null;
  const canMessageOwner = !!session?.user && !refusal;
  const photos = l.pictures.length ? l.pictures : [PLACEHOLDER_IMAGE];
  const stay = formatStay(l.available_from, l.available_to);
  // "1.2 mi to UF" (docs/decisions/019); no row and no tag when the distance is unknown.
  const distance = formatDistance(l.distance_miles, l.university_abbreviation);
  const details: [string, string][] = [
    ["Unit type", unitLabel(l.unit_type)],
    ["Lease term", termLabel(l.lease_term)],
    // The exact dates (docs/decisions/021), when the owner gave them.
    ...(stay ? [["Available", stay] as [string, string]] : []),
    ["University", `${l.university_name} (${l.university_abbreviation})`],
    ...(distance ? [["Distance to campus", distance] as [string, string]] : []),
    // The street and area for everyone but the owner and staff (decision 024); nothing when none is left.
    ...(l.address ? [["Address", l.address] as [string, string]] : []),
    ["Parking", l.parking ? "Yes" : "No"],
    ["Pets", l.allow_pets ? "Allowed" : "Not allowed"],
    // Only a shared unit has a roommate to prefer (decision 018): a whole unit has no such row.
    ...(allowsGenderPreference(l.unit_type) ? [["Roommate preference", GENDER_LABELS[l.gender_preference] ?? l.gender_preference] as [string, string]] : []),
  ];

  return (
    <PageFrame title={l.title} hideHeading>
      <div className="listing-top">{backLink}</div>
      {isOwner && l.verification_status !== PUBLIC_LISTING.verification_status && (
        <p className={`panel notice notice-${l.verification_status}`}>
          {l.verification_status === "pending"
            ? `${isOwnerView(l) && l.review_reason ? `${reviewReasonNotice(l.review_reason)} ` : ""}Only you can see this listing until our team approves it (typically ${REVIEW_TIME}).`
            : `This listing was rejected${isOwnerView(l) && l.rejection_reason ? `: ${l.rejection_reason}` : "."}`}
        </p>
      )}
      {isOwner && l.status === "paused" && <PausedNotice listingId={l.id} />}
      {isOwner && l.moderation_status !== PUBLIC_LISTING.moderation_status && (
        <p className="panel notice notice-rejected">Our team has hidden this listing: only you can see it. Contact support to ask why.</p>
      )}
      <div className="listing-layout">
        <div className="listing-main">
          <div className="listing-photos-desktop">
            <button type="button" className="main-photo" onClick={() => setGallery(active)} aria-label="Open photo gallery">
              <ListingPhoto full={photos[active]} thumbnail={l.thumbnails[active]} alt={`${l.title}, photo ${active + 1}`} priority />
            </button>
            {photos.length > 1 && (
              <div className="thumb-strip" role="list" aria-label="Photos">
                {l.thumbnails.map((src, i) => (
                  <button key={src + i} type="button" role="listitem" className={i === active ? "active" : ""} aria-label={`Show photo ${i + 1}`} aria-current={i === active} onClick={() => setActive(i)}>
                    <ListingPhoto thumbnail={src} alt="" />
                  </button>
                ))}
              </div>
            )}
          </div>
          <div className="listing-photos-mobile">
            <Carousel images={photos} thumbnails={l.thumbnails} sizes={LISTING_IMAGE_SIZES} priority alt={l.title} onOpen={setGallery} />
          </div>
          <header className="listing-header">
            <h1>
              {l.title}
            </h1>
            <p className="rent-capsule">
              <strong>{formatRent(l.monthly_rent)}</strong> / month
            </p>
          </header>
          {!isOwner && l.rent_below_typical && <BelowTypicalRent />}
          <AvailabilityConfirmed at={l.availability_confirmed_at} />
          <ul className="tags" aria-label="Tags">
            <li>{unitLabel(l.unit_type)}</li>
            <li>{termLabel(l.lease_term)}</li>
            {stay && <li>{stay}</li>}
            {distance && <li>{distance}</li>}
            {l.parking && <li>Parking</li>}
            {l.allow_pets && <li>Pets OK</li>}
            {l.promoted && <li className="tag-featured">Featured</li>}
          </ul>
          {/* Stays paid through CampusNest: a request overlapping one is refused. */}
          {!!l.taken_stays?.length && (
            <ul className="listing-taken" aria-label="Taken stays">
              {l.taken_stays.map((t) => (
                <li key={`${t.move_in}-${t.move_out}`}>Taken {formatStay(t.move_in, t.move_out) ?? `${t.move_in} – ${t.move_out}`}</li>
              ))}
            </ul>
          )}
          <section className="panel">
            <h2>Description</h2>
            <p className="prewrap">{l.description}</p>
          </section>
          <section className="panel">
            <h2>Property details</h2>
            <dl className="details">
              {details.map(([term, value]) => (
                <div key={term}>
                  <dt>{term}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
            {/* Decision 024: the public reads the street and area; the owner is told what they see. */}
            {isOwnerView(l) ? (
              <p className="field-hint listing-address-note">
                {OWNER_ADDRESS_NOTE} {l.address_public ? `They see: ${l.address_public}.` : ""}
              </p>
            ) : (
              <p className="field-hint listing-address-note">{PUBLIC_ADDRESS_NOTE}</p>
            )}
          </section>
          {/* Below the first screen (docs/decisions/024); its map loads when the section comes near. */}
          <LocationSection listing={l} exactAllowed={isOwnerView(l)} />
        </div>
        <aside className="panel contact-card" aria-label="Contact">
          <div className="contact-owner">
            <Avatar src={owner.data?.avatar_url ?? l.user_avatar_url} firstName={l.user_first_name} lastName={l.user_last_name} size={56} />
            <div>
              <p className="contact-name">
                {l.user_first_name} {l.user_last_name} {isOwner && <span className="muted">(You)</span>}
              </p>
              {owner.data?.university && <p className="muted">{owner.data.university}</p>}
              <p>
                <ReviewSummaryLine summary={owner.data?.review_summary ?? l.review_summary} label={`${l.user_first_name}'s reviews as a lister`} />
              </p>
              <TrustChecks user={owner.data} />
            </div>
          </div>
          <CardAction listing={l} isOwner={isOwner} canMessageOwner={canMessageOwner} messageRefusal={refusal?.detail} />
          {!isOwner && !refusal && l.status === "available" && requestDeal && <div className="contact-request">{requestDeal(l)}</div>}
          <p className="safety-note muted">Never pay before you see the place. Keep the conversation on CampusNest.</p>
          {!isOwner && <ReportListing listingId={l.id} />}
        </aside>
      </div>
      <PhoneBar listing={l} isOwner={isOwner} canMessageOwner={canMessageOwner} messageRefusal={refusal?.detail} />
      <Gallery key={gallery ?? -1} images={photos} title={l.title} start={gallery} onClose={closeGallery} />
    </PageFrame>
  );
}
