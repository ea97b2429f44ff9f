/**
 * The stay a renter may request, checked before it is sent (the server checks the same and has the
 * last word): the rules browse's exact dates follow (both dates, real, in order) plus the deal's own.
 */
import { isIsoDate } from "@contract/constants";
import { formatStay } from "@contract/dates";
import { addMonths, DEAL_TIMING, staysOverlap } from "@contract/deals";

/**
 * What is wrong with a requested stay, in words, or null: both dates, in order, from `today` on, and
 * within the listing's dates (or 12 months from today for a listing without them), and clear of the
 * stays already taken (paid deals: the server answers 409 for those).
 */
export function stayProblem(
  stay: { move_in: string; move_out: string },
  listing: { available_from: string | null; available_to: string | null; taken_stays?: { move_in: string; move_out: string }[] | undefined },
  today: string,
): string | null {
  const { move_in: from, move_out: to } = stay;
  if (!from || !to) return "Please choose both dates of your stay.";
  if (!isIsoDate(from) || !isIsoDate(to)) return "Please choose real dates.";
  if (from >= to) return "“Move out” must be after “Move in”.";
  if (from < today) return "The stay cannot start in the past.";
  if (listing.available_from && from < listing.available_from) return "The stay must start on or after the listing's first day.";
  if (listing.available_to && to > listing.available_to) return "The stay must end on or before the listing's last day.";
  if (!listing.available_to && to > addMonths(today, DEAL_TIMING.undatedMaxMonths)) return `The stay must end within ${DEAL_TIMING.undatedMaxMonths} months.`;
  const taken = listing.taken_stays?.find((t) => staysOverlap(stay, t));
  // The year when it is not `today`'s.
  if (taken) return `${formatStay(taken.move_in, taken.move_out, { now: Date.parse(today) }) ?? "Part of that stay"} is already taken. Please choose dates outside it (a move-out day can be the next move-in).`;
  return null;
}
