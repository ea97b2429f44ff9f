import { Dialog } from "../../../components/ui/dialog";
import { useBillingHistory } from "../api/billing-api";
import { formatEpochDate, formatMoney, statusLabel } from "./format";

interface BillingHistoryDialogProps {
  /** The listing whose payments are shown; null closes the dialog. */
  listing: { id: string; title: string } | null;
  onClose: () => void;
}

/**
 * A listing's payments: date, period, amount (from minor units, in its currency) and status. A table;
 * under 600 px each payment is a stacked card, so Amount and Status are never scrolled out of a phone's view.
 */
export function BillingHistoryDialog({ listing, onClose }: BillingHistoryDialogProps) {
  const history = useBillingHistory(listing?.id);
  return (
    <Dialog open={listing !== null} onClose={onClose} title="Billing history" description={listing?.title} size="lg">
      {history.isPending ? (
        <p className="muted">Loading billing history…</p>
      ) : history.isError ? (
        <p className="form-error" role="alert">
          Failed to fetch billing history{" "}
          <button type="button" className="link-button" onClick={() => history.refetch()}>
            Try again
          </button>
        </p>
      ) : history.data.length === 0 ? (
        <p className="muted">No payments yet.</p>
      ) : (
        <div className="table-scroll" role="region" aria-label="Payments" tabIndex={0}>
          <table className="billing-table">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Period</th>
                <th scope="col">Amount</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {history.data.map((entry) => (
                <tr key={entry.id}>
                  {/* data-label: under 600 px each row is a card that names its values (styles.css). */}
                  <td data-label="Date">{formatEpochDate(entry.created)}</td>
                  <td data-label="Period">
                    {formatEpochDate(entry.period_start)} – {formatEpochDate(entry.period_end)}
                  </td>
                  <td data-label="Amount">{formatMoney(entry.amount, entry.currency)}</td>
                  <td data-label="Status">{statusLabel(entry.status)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Dialog>
  );
}
