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
