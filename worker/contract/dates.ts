/**
 * Dates for people, the one formatter of the server and the SPA (docs/decisions/039): "Aug 20", and
 * "Aug 20, 2027" whenever the year is not the current one; agreements, receipts and emails print the
 * year always. A stay is "Aug 20 - Dec 20", "Aug 20 - Dec 20, 2027" or "Dec 20, 2026 - Jan 5, 2027".
 * Calendar dates (`YYYY-MM-DD`) are printed as they are, with no time zone; a moment (an ISO timestamp)
 * is first the calendar date where the reader is. Zod-free: the home page's cards use it.
 */
import { isIsoDate } from "./constants";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

export interface DateOptions {
  /**
   * `auto` (the default): the year only when it is not the current one, for lists, cards and pages;
   * `always`: on agreements, receipts and emails, which are read later and kept.
   */
  year?: "auto" | "always";
  /** What "current" means: this moment (ms or a Date), the reader's clock by default. */
  now?: number | Date;
}

/** The reader's current year (where the code runs: the browser's zone, or the worker's UTC). */
const currentYear = (now: number | Date = Date.now()) => new Date(now).getFullYear();

const day = (date: string, withYear: boolean) =>
  `${MONTHS[Number(date.slice(5, 7)) - 1]} ${Number(date.slice(8, 10))}${withYear ? `, ${date.slice(0, 4)}` : ""}`;

/** "Aug 20" or "Aug 20, 2027" (see DateOptions). `date` is `YYYY-MM-DD`. */
export function formatDate(date: string, { year = "auto", now }: DateOptions = {}): string {
  return day(date, year === "always" || Number(date.slice(0, 4)) !== currentYear(now));
}

/** The calendar date of a moment where the code runs, `YYYY-MM-DD`. */
export function localDate(moment: string | number | Date): string {
  const d = new Date(moment);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/** A moment (an ISO timestamp) as the reader's calendar date: "Nov 30" or "Nov 30, 2026"; null when absent or unreadable. */
export function formatMomentDate(moment: string | number | null | undefined, options: DateOptions = {}): string | null {
  if (moment === null || moment === undefined || moment === "") return null;
  const d = new Date(moment);
  return Number.isNaN(d.getTime()) ? null : formatDate(localDate(d), options);
}

/**
 * A stay for people: "May 20 - Aug 10"; the year once at the end when it is not the current one (or
 * `always`), and on both dates when the stay crosses a year. Null unless both are dates.
 */
export function formatStay(from: string | null | undefined, to: string | null | undefined, options: DateOptions = {}): string | null {
  if (!from || !to || !isIsoDate(from) || !isIsoDate(to)) return null;
  if (from.slice(0, 4) !== to.slice(0, 4)) return `${day(from, true)} - ${day(to, true)}`;
  return `${day(from, false)} - ${formatDate(to, options)}`;
}

/**
 * Several stays in one line: in order, stays that touch or overlap printed as one ("Dec 7 - Dec 20", not
 * "Dec 7 - Dec 8, Dec 8 - Dec 20"), separated by semicolons, since a stay's own year follows a comma.
 */
export function formatStays(stays: readonly { from: string; to: string }[], options: DateOptions = {}): string {
  const joined: { from: string; to: string }[] = [];
  for (const s of [...stays].sort((a, b) => a.from.localeCompare(b.from))) {
    const last = joined.at(-1);
    if (last && s.from <= last.to) last.to = s.to > last.to ? s.to : last.to;
    else joined.push({ ...s });
  }
  return joined.map((s) => formatStay(s.from, s.to, options)).filter((s) => s !== null).join("; ");
}

/**
 * The parts of `from`..`to` no taken stay covers, in order: where a stay can still begin and end (a
 * taken stay's move-in day can be a move-out, its move-out day a move-in). Empty when nothing is free.
 */
export function freeStays(from: string, to: string, taken: readonly { move_in: string; move_out: string }[]): { from: string; to: string }[] {
  const free: { from: string; to: string }[] = [];
  let start = from;
  for (const t of [...taken].sort((a, b) => a.move_in.localeCompare(b.move_in))) {
    if (t.move_out <= start || t.move_in >= to) continue;
    if (t.move_in > start) free.push({ from: start, to: t.move_in });
    if (t.move_out > start) start = t.move_out;
  }
  if (start < to) free.push({ from: start, to });
  return free;
}
