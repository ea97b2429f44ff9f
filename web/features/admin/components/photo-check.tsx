import type { AdminListing, AdminListingWithPhotoCheck, PhotoMatch } from "@contract/admin";
import { useNotACopy } from "../api/admin-mutations";

const day = (iso: string) => iso.slice(0, 10);

/**
 * The copied-photo check on a review (docs/decisions/028): each picture of this listing next to the
 * picture first posted by another owner that it matches, with both listings' owners and dates and a
 * "Not a copy" button (roommates share a kitchen), or "photo check pending" while the photos are still
 * being hashed, and the pictures of a type the server does not compare. Lists that carry no check show nothing.
 */
export function PhotoCheck({ listing, asNotice = false }: { listing: AdminListing | AdminListingWithPhotoCheck; asNotice?: boolean }) {
  if (!("photo_matches" in listing)) return null;
  const notCompared = listing.photos_not_compared.length;
  if (!asNotice) {
    if (listing.photo_matches.length) return <span className="rent-check-flag">Photos match another listing ({listing.photo_matches.length})</span>;
    if (listing.photo_check_pending) return <span className="muted">Photo check pending</span>;
    return notCompared ? <span className="muted">{notCompared} photo(s) not compared</span> : null;
  }
  if (!listing.photo_matches.length && !listing.photo_check_pending && !notCompared) return null;
  return (
    <section className={`panel notice ${listing.photo_matches.length ? "notice-rejected" : ""}`} aria-label="Photo check">
      {listing.photo_matches.length > 0 && (
        <p>
          <strong>{listing.review_reason ?? "Photos match another listing"}</strong>
        </p>
      )}
      {listing.photo_check_pending && <p className="muted">Photo check pending</p>}
      {notCompared > 0 && <p className="muted">{notCompared} photo(s) not compared: WebP and GIF pictures are not decoded on the server.</p>}
      <ul className="stack-sm">
        {listing.photo_matches.map((m) => (
          <MatchRow key={`${m.picture}|${m.matched_picture}`} listing={listing} match={m} />
        ))}
      </ul>
    </section>
  );
}

function MatchRow({ listing, match: m }: { listing: AdminListingWithPhotoCheck; match: PhotoMatch }) {
  const notACopy = useNotACopy(listing.id);
  return (
    <li className="row row-start">
      <figure>
        <img src={m.picture} alt="This listing's photo" width={160} />
        <figcaption className="muted">
          This listing, by {listing.user_first_name}, posted {day(m.posted_at)}
        </figcaption>
      </figure>
      <figure>
        <img src={m.matched_picture} alt="The earlier photo it matches" width={160} />
        <figcaption className="muted">
          First posted {day(m.matched_posted_at)} on listing {m.listing_id} by {m.owner_name ?? `owner ${m.owner_id}`}
        </figcaption>
      </figure>
      <button type="button" className="btn btn-secondary" disabled={notACopy.isPending} onClick={() => notACopy.mutate({ picture: m.picture, matched_picture: m.matched_picture })}>
        Not a copy
      </button>
      {notACopy.isError && <span role="alert">{notACopy.error.message}</span>}
    </li>
  );
}
