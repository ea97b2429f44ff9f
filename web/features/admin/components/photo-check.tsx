import type { AdminListing, AdminListingWithPhotoCheck } from "@contract/admin";

/**
 * The copied-photo check on a review (docs/decisions/028): each picture of this listing next to the
 * picture first posted by another owner that it matches, with that listing and owner, or "photo check
 * pending" while the photos are still being hashed. Lists that carry no check (older answers) show nothing.
 */
export function PhotoCheck({ listing, asNotice = false }: { listing: AdminListing | AdminListingWithPhotoCheck; asNotice?: boolean }) {
  if (!("photo_matches" in listing)) return null;
  if (listing.photo_check_pending && !listing.photo_matches.length) return <span className="muted">Photo check pending</span>;
  if (!listing.photo_matches.length) return null;
  if (!asNotice) return <span className="rent-check-flag">Photos match another listing ({listing.photo_matches.length})</span>;
  return (
    <section className="panel notice notice-rejected" aria-label="Photos match another listing">
      <p>
        <strong>Photos match another listing</strong>
        {listing.photo_check_pending && <span className="muted"> · photo check pending for some photos</span>}
      </p>
      <ul className="stack-sm">
        {listing.photo_matches.map((m) => (
          <li key={`${m.picture}|${m.matched_picture}`} className="row row-start">
            <figure>
              <img src={m.picture} alt="This listing's photo" width={160} />
              <figcaption className="muted">This listing (owner {listing.user_id})</figcaption>
            </figure>
            <figure>
              <img src={m.matched_picture} alt="The earlier photo it matches" width={160} />
              <figcaption className="muted">
                First posted on listing {m.listing_id} by owner {m.owner_id}
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </section>
  );
}
