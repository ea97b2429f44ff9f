import type { To } from "react-router-dom";
import type { PrivateUser } from "@contract/users";
import { paths } from "../../../config/paths";

/** What browse greets a new student with (WelcomeLine), carried in the navigation's state. */
export interface Welcome {
  firstName: string;
  university: string | null;
}

export const isWelcome = (state: unknown): state is { welcome: Welcome } => typeof state === "object" && state !== null && "welcome" in state;

/**
 * The welcome just handed out, kept for a few seconds: if anything between the
 * code and browse drops the navigation's state (a guard sending the now signed-in student to a bare
 * /), browse still opens filtered and greeted.
 */
let pending: { search: string; welcome: Welcome; at: number } | null = null;
const PENDING_MS = 10_000;

/**
 * Where a new student goes once their email code is accepted: browse, filtered to the university
 * chosen at sign-up (the server made it their preferred one), greeted by WelcomeLine.
 */
export function welcomeDestination(user: PrivateUser): { to: To; state: { welcome: Welcome } } {
  const universityId = user.preferred_university_id ?? user.university_id;
  const search = universityId ? `?university=${universityId}` : "";
  const welcome = { firstName: user.first_name, university: user.university };
  pending = { search, welcome, at: Date.now() };
  return { to: search ? { pathname: paths.home, search } : paths.home, state: { welcome } };
}

/** Whether a welcome handed out in the last few seconds is still to be shown. */
export const hasPendingWelcome = (now = Date.now()) => pending !== null && now - pending.at <= PENDING_MS;

/** The pending welcome, once (null when none or too old). */
export function takePendingWelcome(now = Date.now()): { search: string; welcome: Welcome } | null {
  const waiting = hasPendingWelcome(now) ? pending : null;
  pending = null;
  return waiting;
}
