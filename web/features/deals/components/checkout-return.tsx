import { useEffect, useRef, useState } from "react";
import type { Deal } from "@contract/deals";
import { dealTime } from "../../../lib/deal-status";

/**
 * How the deal page waits for the payment after the payment page sends the renter back: Stripe's
 * event may land a moment after the redirect, so the deal is read again a few times, then the page
 * says it is taking longer. One seam so tests drive the waits (no real clock).
 */
export const paymentWatch = {
  attempts: 10,
  intervalMs: 2000,
  wait: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
};

/** The payment is applied (held, or already further), or the deal moved on without it. */
const settled = (deal: Deal) => deal.status !== "signed" && deal.payment.status !== "pending";

/**
 * Back from the payment page: `?paid=1` says "Payment received" and reads the deal until the payment
 * shows as held; `?checkout=cancelled` says nothing was charged.
 */
export function CheckoutReturn({ deal, outcome, refetch }: { deal: Deal; outcome: "paid" | "cancelled" | null; refetch: () => Promise<{ data?: Deal | undefined }> }) {
  const done = settled(deal);
  const [gaveUp, setGaveUp] = useState(false);
  const [round, setRound] = useState(0);
  const read = useRef(refetch);
  useEffect(() => {
    read.current = refetch;
  });

  useEffect(() => {
    if (outcome !== "paid" || done) return;
    let stopped = false;
    void (async () => {
      for (let i = 0; i < paymentWatch.attempts; i++) {
        await paymentWatch.wait(paymentWatch.intervalMs);
        if (stopped) return;
        const { data } = await read.current();
        // The read that shows the payment ends the loop at once (the re-render would, a moment later).
        if (stopped || (data && settled(data))) return;
      }
      setGaveUp(true);
    })();
    return () => {
      stopped = true;
    };
  }, [outcome, done, round]);

  if (outcome === "cancelled" && deal.status === "signed")
    return (
      <p className="panel notice" role="status">
        You were not charged. You can pay whenever you are ready, before move-in.
      </p>
    );
  if (outcome !== "paid") return null;
  if (done)
    return deal.payment.status === "held" || deal.payment.status === "released" ? (
      <p className="panel notice notice-approved" role="status">
        Payment received.{" "}
        {deal.payment.status === "held" && deal.payment.held_until ? `CampusNest holds it until ${dealTime(deal.payment.held_until)}. ` : ""}
        Your receipt is below.
      </p>
    ) : null;
  return (
    <div className="panel notice stack-sm" role="status">
      <p>Payment received. Confirming it with the card company…</p>
      {gaveUp && (
        <>
          <p>This is taking longer than usual. Nothing more to pay: the page shows the payment once it is confirmed, and we email you.</p>
          <div className="row row-start">
            <button
              type="button"
              className="button button-ghost"
              onClick={() => {
                setGaveUp(false);
                setRound((r) => r + 1);
              }}
            >
              Check again
            </button>
          </div>
        </>
      )}
    </div>
  );
}
