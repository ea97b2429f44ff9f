/**
 * Sending email. Development keeps every message in the dev mailbox (GET /api/v1/dev/emails) and
 * logs that one was sent; production posts it to an HTTP mail API configured by EMAIL_API_URL and
 * EMAIL_API_KEY (a Resend-compatible JSON body: {from, to, subject, html, text}).
 */
import type { DevEmail } from "../contract/api";
import type { Config } from "../env";
import { ConfigError } from "../env";
import type { Db } from "../db/client";
import { devEmailsTo, insertDevEmail, pendingNoticeCount } from "../db/queries/dev-emails";
import { newId } from "../lib/ids";
import { log } from "../lib/log";

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export async function sendEmail(db: Db, env: Env, config: Config, message: EmailMessage): Promise<void> {
  if (config.isDevelopment) {
    await insertDevEmail(db, { id: newId(), ...message, to: message.to.trim().toLowerCase() });
    // Development only (the subject carries the code). `npm start` runs wrangler at WRANGLER_LOG=warn,
    // so this line shows only with WRANGLER_LOG=info; the mailbox route is where codes are read.
    log.info("email_kept_in_dev_mailbox", { subject: message.subject });
    return;
  }
  const raw = env as unknown as Record<string, string | undefined>;
  const url = raw.EMAIL_API_URL;
  const apiKey = raw.EMAIL_API_KEY;
  if (!url || !apiKey) throw new ConfigError("Invalid configuration: missing EMAIL_API_URL or EMAIL_API_KEY");
  const res = await fetch(url, {
    method: "POST",
    headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({ from: config.emailFrom, ...message }),
  });
  if (!res.ok) {
    // Never the subject (it carries one-time codes) nor the address.
    log.error("email_send_failed", { status: res.status });
    throw new Error(`Email provider answered ${res.status}`);
  }
}

/** How long the dev mailbox waits for notices queued before it (docs/decisions/037). */
const MAILBOX_WAIT_MS = 5000;

/**
 * The dev mailbox, newest first (at most 100), optionally for one address. It answers once the notices
 * queued in the last minute have been tried by the queue's consumer (at most 5 s), so what a request
 * queued is there when the next request reads it, as when email went during the request.
 */
export async function devMailbox(db: Db, to?: string): Promise<DevEmail[]> {
  const started = Date.now();
  while ((await pendingNoticeCount(db, new Date(Date.now() - 60_000).toISOString())) > 0 && Date.now() - started < MAILBOX_WAIT_MS) await new Promise((r) => setTimeout(r, 50));
  const rows = await devEmailsTo(db, to ? to.trim().toLowerCase() : undefined, 100);
  return rows.map((r) => ({ to: r.to, subject: r.subject, text: r.text, html: r.html, created_at: r.createdAt }));
}
