/**
 * The email channel: the event's template, sent through services/email.ts (dev mailbox or the mail API).
 * A code goes now (emailChannel: its caller answers whether it went); every other email is rendered now
 * and handed to the notices queue (queuedEmailChannel, docs/decisions/037), whose consumer sends it once
 * (deliverEmailJob: a retried or repeated message is not sent again) and retries a failed send with backoff.
 */
import { markDelivered, wasDelivered } from "../../../db/queries/background";
import type { Db } from "../../../db/client";
import type { Config } from "../../../env";
import { newId } from "../../../lib/ids";
import { isoNow } from "../../../lib/time";
import { sendNotices, type EmailJob } from "../../background/messages";
import { sendEmail } from "../../email";
import { emailOf, type Channel } from "../events";

export const emailChannel: Channel = {
  name: "email",
  deliver: ({ db, env, config }, to, event) => sendEmail(db, env, config, emailOf(to, event, config)),
};

export const queuedEmailChannel: Channel = {
  name: "email",
  deliver: ({ db, env, config }, to, event) => enqueueEmail(db, env, { id: newId(), kind: event.kind, userId: to.user?.id ?? null, email: emailOf(to, event, config) }),
};

export const enqueueEmail = (db: Db, env: Env, job: Omit<EmailJob, "type">) => sendNotices(db, env, [{ type: "email", ...job }]);

/** The consumer's side: sends the email unless this job was delivered already. */
export async function deliverEmailJob(db: Db, env: Env, config: Config, job: EmailJob, nowMs = Date.now()): Promise<void> {
  if (await wasDelivered(db, job.id)) return;
  await sendEmail(db, env, config, job.email);
  await markDelivered(db, job.id, isoNow(nowMs));
}
