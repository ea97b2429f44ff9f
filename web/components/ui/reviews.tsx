import type { ReviewSummary } from "@contract/reviews";
import { ReviewSummaryLine } from "./review-summary";

// Apart from the summary line, which the browse cards import: what only the lazy pages show stays off
// `/`'s first load (docs/decisions/023, "Kept under it since").

/**
 * A person's two summaries (docs/decisions/040): as a renter (`renter_review_summary`) and as a lister
 * (`review_summary`), where a person is shown whole (their profile, the chat header).
 */
export function PersonReviewSummaries({ user, own = false }: { user: { first_name: string; review_summary: ReviewSummary; renter_review_summary: ReviewSummary } | undefined; own?: boolean }) {
  if (!user) return null;
  const whose = own ? "Your" : `${user.first_name}'s`;
  return (
    <ul className="person-reviews" aria-label={`${whose} reviews`}>
      <li>
        <span className="muted">As a renter: </span>
        <ReviewSummaryLine summary={user.renter_review_summary} label={`${whose} reviews as a renter`} />
      </li>
      <li>
        <span className="muted">As a lister: </span>
        <ReviewSummaryLine summary={user.review_summary} label={`${whose} reviews as a lister`} />
      </li>
    </ul>
  );
}

/** A rating as stars, read as "4 out of 5". */
export function Stars({ rating }: { rating: number }) {
  return (
    <span role="img" aria-label={`${rating} out of 5`} className="review-stars">
      <span aria-hidden="true">{"★".repeat(rating) + "☆".repeat(5 - rating)}</span>
    </span>
  );
}
