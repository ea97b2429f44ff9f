/**
 * notify(recipient, event): the one way a notice leaves the product. It reads the user's settings
 * and the kind's throttle once (transactional kinds skip both), pushes when the kind's push is on,
 * then emails when the kind's email is on (always for transactional kinds; docs/decisions/027: a new
 * message whose push was taken is emailed only if still unread 15 minutes later, by the cron). A failed channel is logged without the
 * address and reported in the outcome; it never throws, so a notice never undoes what caused it.
 * Callers that must not go on without the notice (an emailed code) rethrow with `delivered()`.
 *
 * Delivery (docs/decisions/037): a code is emailed now, because its caller answers whether it went.
 * Every other notice is decided here and delivered by the notices queue: the email rendered and queued,
 * the push queued (its consumer sends the email that stands in when no device takes it), each sent once
 * and retried with backoff, then a dead letter staff see. "sent" then means handed to the queue.
 */
import { findUserById } from "../../db/queries/users";
import { log } from "../../lib/log";
import { emailChannel, queuedEmailChannel } from "./channels/email";
import { deliverPush, type PushDelivery } from "./channels/push";
import { EVENTS, emailOf, PUSH_COLUMN, type Addressee, type Channel, type NotifyContext, type NotifyEvent, type NotifyUser } from "./events";

export type { Channel, NotifyContext, NotifyEvent } from "./events";

/** A user (by id, or a row already read) or a bare address (a landlord, a school email). */
export type Recipient = { userId: string } | { user: NotifyUser } | { address: string; firstName?: string };

export type NotifyOutcome =
  | { status: "sent"; push?: PushDelivery }
  /** No such user (deleted meanwhile). */
  | { status: "no_recipient" }
  /** The user turned this kind off. */
  | { status: "off" }
  | { status: "throttled" }
  | { status: "failed"; error: unknown };

type Throttle = (c: NotifyContext, id: string, e: NotifyEvent) => Promise<boolean>;

export async function notify(ctx: NotifyContext, recipient: Recipient, event: NotifyEvent, nowMs = Date.now()): Promise<NotifyOutcome> {
  const rule = EVENTS[event.kind];
  const email = "code" in event ? emailChannel : queuedEmailChannel;
  let to: Addressee;
  let emailWanted = true;
  let push: PushDelivery | undefined;
  let failure: unknown = null;
  let skipped: "off" | "throttled" = "off";
  if ("address" in recipient) {
    to = { email: recipient.address, firstName: recipient.firstName ?? "" };
  } else {
    const user = "user" in recipient ? recipient.user : await findUserById(ctx.db, recipient.userId);
    if (!user) return { status: "no_recipient" };
    to = { email: user.email, firstName: user.firstName, user };
    const pushWanted = rule.group !== null && !!rule.push && user[PUSH_COLUMN[rule.group]];
    if (!rule.transactional) {
      emailWanted = !rule.preference || user[rule.preference];
      if (!emailWanted && !pushWanted && !rule.emailUnlessPushed) return { status: "off" };
      const throttle = rule.throttle as Throttle | undefined;
      if (throttle && !(await throttle(ctx, user.id, event))) return { status: "throttled" };
    }
    if (pushWanted) {
      // A new message's email waits for the fallback when a push went (or is held, or one is unread).
      const fallback = event.kind === "new_message" && emailWanted;
      // The email that stands in if no device takes the queued push: a new message's (its email on, the
      // person not online elsewhere), or one of a kind the person must hear of, with its email off.
      const standsIn = !rule.transactional && ((fallback && !(event.kind === "new_message" && event.recipientOnline)) || (!!rule.emailUnlessPushed && !emailWanted));
      try {
        push = await deliverPush(ctx, user, event, fallback, nowMs, standsIn ? { email: emailOf(to, event, ctx.config), event, throttled: !rule.transactional && !!rule.emailThrottle } : null);
      } catch (err) {
        log.warn("notification_failed", { kind: event.kind, channel: "push", message: err instanceof Error ? err.message : "unknown" });
        failure = err;
        push = "none";
      }
      if (event.kind === "new_message" && push !== "none") emailWanted = false;
    }
    if (!rule.transactional && rule.emailUnlessPushed && (push === undefined || push === "none")) emailWanted = true;
    if (event.kind === "new_message" && event.recipientOnline) emailWanted = false;
    if (!rule.transactional && emailWanted) {
      const emailThrottle = rule.emailThrottle as Throttle | undefined;
      if (emailThrottle && !(await emailThrottle(ctx, user.id, event))) {
        emailWanted = false;
        skipped = "throttled";
      }
    }
  }
  if (emailWanted) failure = (await send(ctx, email, to, event)) ?? failure;
  if (failure !== null) return { status: "failed", error: failure };
  if (!emailWanted && (push === undefined || push === "none")) return { status: skipped };
  return push === undefined || push === "none" ? { status: "sent" } : { status: "sent", push };
}

async function send(ctx: NotifyContext, channel: Channel, to: Addressee, event: NotifyEvent): Promise<unknown> {
  try {
    await channel.deliver(ctx, to, event);
    return null;
  } catch (err) {
    // Never the address nor the message (it may carry a one-time code).
    log.warn("notification_failed", { kind: event.kind, channel: channel.name, message: err instanceof Error ? err.message : "unknown" });
    return err;
  }
}

/** For a notice the caller cannot go on without (an emailed code): rethrows the channel's error. */
export function delivered(outcome: NotifyOutcome): NotifyOutcome {
  if (outcome.status === "failed") throw outcome.error;
  return outcome;
}
