/**
 * notify(recipient, event): the one way a notice leaves the product. It reads the user's preference
 * and the kind's throttle once (transactional kinds skip both), then hands the event to every channel
 * (email today; push is one more module in channels/). A failed channel is logged without the
 * address and reported in the outcome; it never throws, so a notice never undoes what caused it.
 * Callers that must not go on without the notice (an emailed code) rethrow with `delivered()`.
 */
import { findUserById, type UserRow } from "../../db/queries/users";
import { log } from "../../lib/log";
import { emailChannel } from "./channels/email";
import { EVENTS, type Addressee, type Channel, type NotifyContext, type NotifyEvent, type PreferenceColumn } from "./events";

export type { Channel, NotifyContext, NotifyEvent } from "./events";

/** A user (by id, or a row already read) or a bare address (a landlord, a school email). */
export type Recipient = { userId: string } | { user: Pick<UserRow, "id" | "email" | "firstName" | PreferenceColumn> } | { address: string; firstName?: string };

const CHANNELS: Channel[] = [emailChannel];

export type NotifyOutcome =
  | { status: "sent" }
  /** No such user (deleted meanwhile). */
  | { status: "no_recipient" }
  /** The user turned this kind off. */
  | { status: "off" }
  | { status: "throttled" }
  | { status: "failed"; error: unknown };

export async function notify(ctx: NotifyContext, recipient: Recipient, event: NotifyEvent): Promise<NotifyOutcome> {
  const rule = EVENTS[event.kind];
  let to: Addressee;
  if ("address" in recipient) {
    to = { email: recipient.address, firstName: recipient.firstName ?? "" };
  } else {
    const user = "user" in recipient ? recipient.user : await findUserById(ctx.db, recipient.userId);
    if (!user) return { status: "no_recipient" };
    to = { email: user.email, firstName: user.firstName, user };
    if (!rule.transactional) {
      if (rule.preference && !user[rule.preference]) return { status: "off" };
      const throttle = rule.throttle as ((c: NotifyContext, id: string, e: NotifyEvent) => Promise<boolean>) | undefined;
      if (throttle && !(await throttle(ctx, user.id, event))) return { status: "throttled" };
    }
  }
  let failure: unknown = null;
  for (const channel of CHANNELS) {
    try {
      await channel.deliver(ctx, to, event);
    } catch (err) {
      // Never the address nor the message (it may carry a one-time code).
      log.warn("notification_failed", { kind: event.kind, channel: channel.name, message: err instanceof Error ? err.message : "unknown" });
      failure ??= err;
    }
  }
  return failure === null ? { status: "sent" } : { status: "failed", error: failure };
}

/** For a notice the caller cannot go on without (an emailed code): rethrows the channel's error. */
export function delivered(outcome: NotifyOutcome): NotifyOutcome {
  if (outcome.status === "failed") throw outcome.error;
  return outcome;
}
