import type { ReviewSummary } from "@contract/reviews";
import { REVIEW_NEW_BELOW } from "@contract/constants";

/**
 * A review summary in a line: "★ 4.5 · 2 reviews · New" (docs/decisions/040). "New" beside the average
 * while there are fewer than REVIEW_NEW_BELOW reviews, so a lone 5.0 never reads as a track record; none: "No reviews yet".
 */
export function ReviewSummaryLine({ summary, label = "Reviews" }: { summary: ReviewSummary | undefined; label?: string }) {
  if (!summary) return null;
  if (summary.count === 0) return <span className="review-summary muted">No reviews yet</span>;
  const average = summary.average.toFixed(1);
  const count = `${summary.count} ${summary.count === 1 ? "review" : "reviews"}`;
  const isNew = summary.count < REVIEW_NEW_BELOW;
  return (
    <span className="review-summary" role="img" aria-label={`${label}: average ${average} out of 5 from ${count}${isNew ? ", new" : ""}`}>
      <span aria-hidden="true">★ {average}</span>
      <span aria-hidden="true" className="muted">
        {" "}
        · {count}
      </span>
      {isNew && (
        <span aria-hidden="true" className="badge review-new">
          New
        </span>
      )}
    </span>
  );
}

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
