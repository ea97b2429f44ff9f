/** Dates and money as the billing page shows them: dates with their year always (a bill is kept, contract/dates.ts). */
import { formatMomentDate } from "@contract/dates";

/** An ISO timestamp as a date ("Nov 30, 2026"); null when absent or unreadable. */
export const formatIsoDate = (iso: string | null | undefined) => formatMomentDate(iso, { year: "always" });

/** Epoch seconds (billing history) as a date. */
export const formatEpochDate = (seconds: number) => formatMomentDate(seconds * 1000, { year: "always" })!;

/** Minor units in the given currency (the product's rule: minor units divided by 100; zero-decimal currencies as they are). */
export function formatMoney(minor: number, currency: string): string {
  const code = currency.toUpperCase();
  try {
    const format = new Intl.NumberFormat("en-US", { style: "currency", currency: code });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(minor / 10 ** digits);
  } catch {
    return `${(minor / 100).toFixed(2)} ${code}`;
  }
}

/** "paid" -> "Paid", "past_due" -> "Past due". */
export const statusLabel = (status: string) => {
  const words = status.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
};
