/**
 * Background work on Cloudflare Queues (docs/decisions/037): the cron only enqueues, the dev tick still
 * runs the deal jobs before it answers, each consumer is idempotent and retries with backoff, the
 * dead-letter queue's consumer writes what failed every retry for staff, and Miniflare's own queues
 * deliver to the worker's queue() handler as `wrangler dev` does.
 */
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import entry from "../../../worker/index";
import { CRON_JOBS, QUEUES } from "../../../worker/services/background/messages";
import { retryDelaySeconds } from "../../../worker/services/background/consumer";
import { addListingPhoto, adminLogin, api, authed, deliver, deliveries, drainQueues, insertListing, json, post, queued, realQueues, scenePhoto, signUp } from "../helpers";

const DAY = 86_400_000;
const failureRow = (id: string) => env.DB.prepare("SELECT * FROM queue_failures WHERE id = ?").bind(id).first<Record<string, string | number | null>>();

describe("the cron", () => {
  it("only enqueues: one message a job as of its scheduled time, the deal jobs first; the jobs queue's consumer runs them", async () => {
    const old = new Date(Date.now() - 2 * DAY).toISOString();
    await env.DB.prepare("INSERT INTO email_codes (id, email, purpose, code_hash, expires_at) VALUES ('cron-old', 'cron@x.edu', 'verify_email', 'h', ?)").bind(old).run();
    const scheduledTime = Math.floor(Date.now() / 900_000) * 900_000;
    const ctx = createExecutionContext();
    await entry.scheduled!(createScheduledController({ cron: "*/15 * * * *", scheduledTime }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(queued().map((m) => [m.queue, m.body])).toEqual(CRON_JOBS.map((job) => [QUEUES.jobs, { type: "job", job, at: scheduledTime }]));
    expect(CRON_JOBS[0]).toBe("deal-jobs");
    // Nothing ran in the cron's own invocation.
    expect(await env.DB.prepare("SELECT id FROM email_codes WHERE id = 'cron-old'").first()).not.toBeNull();
    const done = await drainQueues();
    expect(done.map((d) => [(d.body as { job: string }).job, d.outcome])).toEqual(CRON_JOBS.map((job) => [job, "ack"]));
    expect(await env.DB.prepare("SELECT id FROM email_codes WHERE id = 'cron-old'").first()).toBeNull();
  });

  it("POST dev/deals/tick runs the deal jobs before it answers, queueing nothing for them", async () => {
    const [renter, lister] = await Promise.all([signUp("tick-renter@ufl.edu"), signUp("tick-lister@ufl.edu")]);
    const past = new Date(Date.now() - 3_600_000).toISOString();
    await env.DB.prepare(
      "INSERT INTO deals (id, renter_id, lister_id, move_in, move_out, time_zone, status, listing_title, monthly_rent, expires_at, created_at, updated_at) VALUES ('tick-deal', ?, ?, '2027-01-05', '2027-02-05', 'America/New_York', 'requested', 'Room', 900, ?, ?, ?)",
    )
      .bind(renter.user.id, lister.user.id, past, past, past)
      .run();
    const before = deliveries.length;
    // The worker's own fetch, without the test client's queue delivery: what the answer waited for is done.
    const ctx = createExecutionContext();
    const res = await entry.fetch(
      new Request("http://localhost/api/v1/dev/deals/tick", { method: "POST", body: JSON.stringify({ now: new Date().toISOString() }), headers: { "content-type": "application/json" } }) as Request<unknown, IncomingRequestCfProperties>,
      env,
      ctx,
    );
    expect(res.status).toBe(200);
    expect((await json<{ data: { expired: number } }>(res)).data.expired).toBe(1);
    expect(await env.DB.prepare("SELECT status FROM deals WHERE id = 'tick-deal'").first()).toEqual({ status: "expired" });
    await waitOnExecutionContext(ctx);
    expect(queued().filter((m) => m.queue === QUEUES.jobs)).toEqual([]);
    await drainQueues();
    expect(deliveries.slice(before).filter((d) => d.queue === QUEUES.jobs)).toEqual([]);
  });
});

describe("the consumers", () => {
  it("a photo check repeated (a retry, a second upload of the same listing) hashes nothing twice", async () => {
    const owner = await signUp("queue-photos@ufl.edu");
    await insertListing(owner.user.id, "qp1");
    await addListingPhoto("qp1", scenePhoto(1), "2026-10-01T00:00:00.000Z");
    await post("/api/v1/dev/housekeeping", {});
    const message = { queue: QUEUES.photos, id: "photo-msg-1", timestamp: new Date(), attempts: 1, body: { type: "photo-check", listingId: "qp1" } };
    expect(await deliver(QUEUES.photos, [message])).toMatchObject([{ outcome: "ack" }]);
    const rows = () => env.DB.prepare("SELECT photo_id, status, created_at FROM photo_hashes WHERE listing_id = 'qp1'").all();
    const first = (await rows()).results;
    expect(first).toEqual([expect.objectContaining({ status: "hashed" })]);
    expect(await deliver(QUEUES.photos, [{ ...message, attempts: 2 }])).toMatchObject([{ outcome: "ack" }]);
    expect((await rows()).results).toEqual(first);
  });

  it("a failing message is retried with a delay growing 4 times an attempt (to an hour), others in its batch are acknowledged", async () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelaySeconds(QUEUES.notices, n))).toEqual([30, 120, 480, 1920, 3600]);
    expect([1, 2].map((n) => retryDelaySeconds(QUEUES.jobs, n))).toEqual([60, 240]);
    const owner = await signUp("queue-batch@ufl.edu");
    await insertListing(owner.user.id, "qb1");
    const broken = { queue: QUEUES.photos, id: "broken-1", timestamp: new Date(), attempts: 3, body: { type: "nonsense" } };
    const fine = { queue: QUEUES.photos, id: "fine-1", timestamp: new Date(), attempts: 1, body: { type: "photo-check", listingId: "qb1" } };
    expect((await deliver(QUEUES.photos, [broken, fine])).map((d) => [d.id, d.outcome, d.delaySeconds])).toEqual([
      ["broken-1", "retry", 480],
      ["fine-1", "ack", undefined],
    ]);
    expect(await failureRow("broken-1")).toMatchObject({ kind: "nonsense", attempts: 3, dead_at: null, error: "Error: unknown message type nonsense" });
  });

  it("the dead-letter queue's consumer makes each message a dead letter, keeping the last error; staff list them newest first, a page at a time", async () => {
    const user = await signUp("queue-dead@ufl.edu");
    // A job that failed its attempts (its error kept), then a photo check whose failure row was lost.
    const job = { queue: QUEUES.jobs, id: "dead-job", timestamp: new Date("2026-12-01T10:00:00.000Z"), attempts: 3, body: { type: "job", job: "definitely-not-a-job", at: 1 } };
    expect(await deliver(QUEUES.jobs, [job])).toMatchObject([{ outcome: "retry" }]);
    const letters = [
      { ...job, attempts: 1 },
      { queue: QUEUES.deadLetters, id: "dead-photo", timestamp: new Date("2026-12-01T11:00:00.000Z"), attempts: 1, body: { type: "photo-check", listingId: "gone" } },
      {
        queue: QUEUES.deadLetters,
        id: "dead-email",
        timestamp: new Date("2026-12-01T12:00:00.000Z"),
        attempts: 1,
        body: { type: "email", id: "e1", kind: "listing_review", userId: user.user.id, email: { to: "queue-dead@ufl.edu", subject: "Your listing is live", text: "secret text", html: "<p>secret text</p>" } },
      },
    ];
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      for (const [i, letter] of letters.entries()) {
        vi.setSystemTime(Date.parse("2026-12-02T00:00:00.000Z") + i * 1000);
        expect(await deliver(QUEUES.deadLetters, [letter])).toMatchObject([{ outcome: "ack" }]);
      }
    } finally {
      vi.useRealTimers();
    }
    expect(await failureRow("dead-job")).toMatchObject({ kind: "job", subject: "definitely-not-a-job", attempts: 3, dead_at: "2026-12-02T00:00:00.000Z", sent_at: "2026-12-01T10:00:00.000Z" });
    expect(String((await failureRow("dead-job"))!.error)).toContain("Error");
    // What staff read of an email: its kind, its account and subject, never the address or the text.
    const email = (await failureRow("dead-email"))!;
    expect(email).toMatchObject({ kind: "email", subject: `user ${user.user.id}: listing_review` });
    expect(String(email.body)).not.toMatch(/queue-dead@ufl\.edu|secret text/);
    // The same dead letter delivered again changes nothing.
    expect(await deliver(QUEUES.deadLetters, [letters[0]!])).toMatchObject([{ outcome: "ack" }]);
    expect(await failureRow("dead-job")).toMatchObject({ dead_at: "2026-12-02T00:00:00.000Z" });

    const token = await adminLogin();
    const page = async (query: string) => {
      const res = await api(`/api/v1/admin/dead-letters${query}`, authed(token));
      expect(res.status).toBe(200);
      return json<{ dead_letters: { id: string; kind: string; subject: string | null; error: string | null; attempts: number; sent_at: string; dead_at: string; body: string }[]; pagination: { next_token: string | null; has_more: boolean } }>(res);
    };
    const first = await page("?limit=2");
    expect(first.dead_letters.map((d) => d.id)).toEqual(["dead-email", "dead-photo"]);
    expect(first.pagination.has_more).toBe(true);
    expect(first.dead_letters[1]).toMatchObject({ kind: "photo-check", subject: "listing gone", error: null, sent_at: "2026-12-01T11:00:00.000Z", dead_at: "2026-12-02T00:00:01.000Z" });
    const second = await page(`?limit=2&last_evaluated_key=${first.pagination.next_token}`);
    expect(second.dead_letters.map((d) => d.id)).toEqual(["dead-job"]);
    expect(second.pagination).toEqual({ next_token: null, has_more: false });
    // Retrying messages are not dead letters yet.
    await deliver(QUEUES.photos, [{ queue: QUEUES.photos, id: "still-retrying", timestamp: new Date(), attempts: 1, body: { type: "nonsense" } }]);
    expect((await page("")).dead_letters.map((d) => d.id)).not.toContain("still-retrying");

    // Staff only; bad input is a readable 4xx.
    expect((await api("/api/v1/admin/dead-letters")).status).toBe(401);
    expect((await api("/api/v1/admin/dead-letters", authed(user.access_token))).status).toBe(401);
    const tooMany = await api("/api/v1/admin/dead-letters?limit=500", authed(token));
    expect(tooMany.status).toBe(422);
    expect((await json<{ detail: string }>(tooMany)).detail).toBe("limit must be 1 to 100");
    const badCursor = await api("/api/v1/admin/dead-letters?last_evaluated_key=nope", authed(token));
    expect(badCursor.status).toBe(400);
    expect((await json<{ detail: string }>(badCursor)).detail).toBe("Invalid page token");
  });

  it("a success after failures clears the failure row; old delivery records and dead letters are pruned by the cleanup job", async () => {
    await env.DB.prepare("INSERT INTO queue_failures (id, kind, subject, body, error, attempts, sent_at, failed_at, dead_at) VALUES ('ancient', 'job', 'cleanup', '{}', 'x', 3, '2020-01-01T00:00:00.000Z', '2020-01-01T00:00:00.000Z', '2020-01-02T00:00:00.000Z')").run();
    await env.DB.prepare("INSERT INTO notice_deliveries (id, delivered_at) VALUES ('ancient', '2020-01-01T00:00:00.000Z'), ('recent', ?)").bind(new Date().toISOString()).run();
    await post("/api/v1/dev/housekeeping", {});
    expect(await failureRow("ancient")).toBeNull();
    expect((await env.DB.prepare("SELECT id FROM notice_deliveries WHERE id IN ('ancient', 'recent')").all()).results).toEqual([{ id: "recent" }]);
  });
});

describe("Miniflare's queues, as wrangler dev runs them", () => {
  it("a photo check sent on the real photos queue reaches the worker's queue() handler and is hashed", async () => {
    const owner = await signUp("queue-real@ufl.edu");
    await insertListing(owner.user.id, "qr1");
    await addListingPhoto("qr1", scenePhoto(2), "2026-10-01T00:00:00.000Z");
    await realQueues.PHOTO_QUEUE.send({ type: "photo-check", listingId: "qr1" }, { contentType: "json" });
    // Delivered by Miniflare's broker (batch timeout 0): waits on the condition, never on a clock.
    await vi.waitFor(async () => expect(await env.DB.prepare("SELECT status FROM photo_hashes WHERE listing_id = 'qr1'").first()).toEqual({ status: "hashed" }), { timeout: 20_000, interval: 100 });
  });
});
