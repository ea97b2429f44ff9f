import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link } from "react-router-dom";
import { DEAL_TIMING, DEAL_WORDS, type Deal } from "@contract/deals";
import { formatStay, formatStays } from "@contract/dates";
import { Dialog } from "../../../components/ui/dialog";
import { FormError } from "../../../components/ui/field";
import { paths } from "../../../config/paths";
import { errorMessage } from "../../../lib/api-client";
import { formatRent } from "../../../lib/listings-api";
import { dealStay } from "../../../lib/deal-status";
import { dealUrl } from "../../../lib/deals-api";
import { newRequestKey, useRequestDeal } from "../api/deals-api";
import { stayProblem } from "../lib/stay";

/** The listing a request is for, and what to do once it is sent (the thread shows its card at once). */
export interface RequestDealTarget {
  listing: {
    id: string;
    title: string;
    user_id: string;
    monthly_rent: number;
    available_from: string | null;
    available_to: string | null;
    /** Stays paid through CampusNest (the listing page's read): a request overlapping one is refused before it is sent. */
    taken_stays?: { move_in: string; move_out: string }[] | undefined;
  };
  onSent?: ((deal: Deal) => void) | undefined;
  /** Sent from inside the conversation with the lister: its card is already there, so no link to open it. */
  inThread?: boolean | undefined;
}

/** Today's date where the renter is, `YYYY-MM-DD` (the server decides by the university's time zone). */
export const localToday = (now = new Date()) =>
  `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;

/**
 * The stay the form starts with: the listing's dates, from today on if they have begun, and after any
 * taken stay they would start in; it ends at the next taken stay, if one begins before the listing's end.
 */
export function initialStay(listing: RequestDealTarget["listing"], today: string) {
  let from = listing.available_from ? (listing.available_from < today ? today : listing.available_from) : "";
  const taken = [...(listing.taken_stays ?? [])].sort((a, b) => a.move_in.localeCompare(b.move_in));
  for (const t of taken) if (from && t.move_in <= from && from < t.move_out) from = t.move_out;
  const next = taken.find((t) => from && t.move_in > from);
  const end = next && (!listing.available_to || next.move_in < listing.available_to) ? next.move_in : listing.available_to;
  const to = end && end > from ? end : "";
  return { move_in: from, move_out: to };
}

type Props = RequestDealTarget & { open: boolean; onClose: () => void };

export function RequestDealDialog({ open, onClose, listing, onSent, inThread }: Props) {
  const [today] = useState(localToday);
  const [stay, setStay] = useState(() => initialStay(listing, today));
  const [checked, setChecked] = useState(false);
  // One Idempotency-Key per intended request: a repeat of the same stay (a dropped answer) reuses it.
  const keyFor = useRef<{ body: string; key: string } | null>(null);
  const request = useRequestDeal(onSent);
  const problem = stayProblem(stay, listing, today);
  const shownProblem = checked ? problem : null;
  const listingStay = formatStay(listing.available_from, listing.available_to);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (problem || request.isPending) return;
    const input = { listing_id: listing.id, ...stay };
    const body = JSON.stringify(input);
    if (keyFor.current?.body !== body) keyFor.current = { body, key: newRequestKey() };
    request.mutate({ input, key: keyFor.current.key });
  };

  const sent: Deal | undefined = request.data;
  // The form gives way to the confirmation: focus moves to its first link.
  const sentLink = useRef<HTMLAnchorElement & HTMLButtonElement>(null);
  useEffect(() => {
    if (sent) sentLink.current?.focus();
  }, [sent]);
  return (
    <Dialog open={open} onClose={onClose} title={sent ? "Request sent" : "Request to sublease"} description={sent ? undefined : listing.title}>
      {sent ? (
        <div className="stack" role="status">
          <p>
            Your request for {dealStay(sent)} is {inThread ? "in this conversation" : "in your conversation"} with {sent.lister.first_name}. They have {DEAL_WORDS.requestHours} hours to accept or decline.
          </p>
          {/* Said now, not first at signing: the renter's own ID check is a step of the deal (waiting_for). */}
          {sent.waiting_for.step === "id_verification" && sent.waiting_for.party === "renter" && (
            <p className="notice notice-pending">
              {sent.waiting_for.detail}{" "}
              <Link to={paths.verification} onClick={onClose}>
                Verify your identity
              </Link>
            </p>
          )}
          <div className="row row-start">
            {inThread ? (
              <button type="button" className="button button-primary" ref={sentLink} onClick={onClose}>
                Back to the conversation
              </button>
            ) : (
              <Link to={paths.messages(listing.user_id, listing.id)} className="button button-primary" ref={sentLink} onClick={onClose}>
                Open the conversation
              </Link>
            )}
            <Link to={dealUrl(sent.id)} className="button button-ghost" onClick={onClose}>
              See the deal
            </Link>
          </div>
        </div>
      ) : (
        <form className="stack" onSubmit={submit} noValidate>
          <p className="muted">
            {listingStay ? `Available ${listingStay}. Pick the whole stay or part of it.` : `Pick your stay (at most ${DEAL_TIMING.undatedMaxMonths} months ahead).`} Rent {formatRent(listing.monthly_rent)} / month.
          </p>
          {!!listing.taken_stays?.length && <p className="muted">Already taken: {formatStays(listing.taken_stays.map((t) => ({ from: t.move_in, to: t.move_out })))}.</p>}
          <fieldset className="field stay-field deal-stay-field">
            <legend className="field-label">Your stay</legend>
            <div className="stay-inputs">
              <label className="stay-input">
                <span>Move in</span>
                <input
                  type="date"
                  name="move_in"
                  value={stay.move_in}
                  min={listing.available_from && listing.available_from > today ? listing.available_from : today}
                  max={listing.available_to ?? undefined}
                  aria-invalid={shownProblem ? true : undefined}
                  aria-describedby={shownProblem ? "deal-stay-error" : undefined}
                  data-autofocus
                  onChange={(e) => setStay((s) => ({ ...s, move_in: e.target.value }))}
                />
              </label>
              <span className="stay-dash" aria-hidden="true">
                –
              </span>
              <label className="stay-input">
                <span>Move out</span>
                <input
                  type="date"
                  name="move_out"
                  value={stay.move_out}
                  min={stay.move_in || today}
                  max={listing.available_to ?? undefined}
                  aria-invalid={shownProblem ? true : undefined}
                  aria-describedby={shownProblem ? "deal-stay-error" : undefined}
                  onChange={(e) => setStay((s) => ({ ...s, move_out: e.target.value }))}
                />
              </label>
            </div>
            {shownProblem && (
              <span className="field-error" id="deal-stay-error" role="alert">
                {shownProblem}
              </span>
            )}
          </fieldset>
          <p className="field-hint">The lister sees your request in your conversation and has {DEAL_WORDS.requestHours} hours to answer. Nothing is paid now.</p>
          <FormError message={request.isError ? errorMessage(request.error, "Could not send the request. Please try again.") : null} />
          <div className="row">
            <button type="button" className="button button-ghost" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="button button-primary" disabled={request.isPending}>
              {request.isPending ? "Sending…" : "Send request"}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
