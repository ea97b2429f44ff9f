/**
 * The queues in worker tests (docs/decisions/037). setup.ts swaps each producer binding of the test's
 * env for one that keeps what is sent; `drainQueues()` hands the kept messages to the worker's own
 * queue() handler in batches made by cloudflare:test's createMessageBatch, reads each message's
 * outcome with getQueueResult, and goes on until nothing is left (a consumer may send more: a push's
 * stand-in email, an approval's alert emails). `api()` drains after every request, so a test sees the
 * emails, pushes and photo checks its request caused, as a client sees them a moment later. A message
 * the consumer asked to retry is kept, its attempt counted, in `retrying`; `drainQueues({ retry: true })`
 * delivers it again (the platform would after the delay the consumer asked for).
 * The Miniflare queues themselves stay in `realQueues` for the test that runs one end to end.
 */
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import entry from "../../../worker/index";
import { QUEUES } from "../../../worker/services/background/messages";

const BINDINGS = { PHOTO_QUEUE: QUEUES.photos, NOTICE_QUEUE: QUEUES.notices, JOB_QUEUE: QUEUES.jobs } as const;
type Binding = keyof typeof BINDINGS;

export interface KeptMessage {
  queue: string;
  id: string;
  timestamp: Date;
  attempts: number;
  body: unknown;
}

/** What the consumer did with a delivered message. */
export interface Delivery extends KeptMessage {
  outcome: "ack" | "retry" | "none";
  delaySeconds?: number;
}

const waiting: KeptMessage[] = [];
export const retrying: KeptMessage[] = [];
/** Every delivery of this file's tests, in order (tests read what concerns them). */
export const deliveries: Delivery[] = [];

export const realQueues = {} as Record<Binding, Queue>;

/** The keeping producer's own binding it stands in for: the test files share one env (docs/decisions/046). */
const REAL = Symbol.for("campusnest.realQueue");

function keeping(queue: string, real: Queue): Queue {
  const keep = (body: unknown) => waiting.push({ queue, id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body });
  return {
    async send(body: unknown) {
      keep(body);
      return { metadata: { metrics: { backlogCount: waiting.length, backlogBytes: 0 } } };
    },
    async sendBatch(messages: Iterable<MessageSendRequest<unknown>>) {
      for (const m of messages) keep(m.body);
      return { metadata: { metrics: { backlogCount: waiting.length, backlogBytes: 0 } } };
    },
    async metrics() {
      return { backlogCount: waiting.length, backlogBytes: 0 };
    },
    [REAL]: real,
  } as Queue;
}

/** Swaps the env's producers for keeping ones (test/worker/setup.ts, once per file: the env an earlier file swapped keeps its real producer). */
export function keepQueuedMessages() {
  waiting.length = 0;
  retrying.length = 0;
  deliveries.length = 0;
  const bindings = env as unknown as Record<Binding, Queue & { [REAL]?: Queue }>;
  for (const [binding, queue] of Object.entries(BINDINGS) as [Binding, string][]) {
    const real = bindings[binding][REAL] ?? bindings[binding];
    realQueues[binding] = real;
    bindings[binding] = keeping(queue, real);
  }
}

/** Messages sent and not delivered yet (a test that checks what was queued before it drains). */
export const queued = (): readonly KeptMessage[] => waiting;

/** Delivers one queue's messages as one batch to the worker's queue() handler; returns each outcome. */
export async function deliver(queue: string, messages: KeptMessage[], bindings: Env = env): Promise<Delivery[]> {
  const batch = createMessageBatch(
    queue,
    messages.map((m) => ({ id: m.id, timestamp: m.timestamp, attempts: m.attempts, body: m.body })),
  );
  // getQueueResult reports which messages were retried, not the delay each asked for: kept here.
  const delays = new Map<string, number | undefined>();
  for (const message of batch.messages) {
    const retry = message.retry.bind(message);
    message.retry = (options?: QueueRetryOptions) => {
      delays.set(message.id, options?.delaySeconds);
      retry(options);
    };
  }
  const ctx = createExecutionContext();
  await entry.queue!(batch as MessageBatch<never>, bindings, ctx);
  const result = await getQueueResult(batch, ctx);
  const acked = new Set(result.explicitAcks);
  const retried = new Set(result.retryMessages.map((r: { msgId: string }) => r.msgId));
  return messages.map((m) => {
    const delivery: Delivery =
      retried.has(m.id) || result.retryBatch.retry
        ? { ...m, outcome: "retry", delaySeconds: delays.get(m.id) ?? result.retryBatch.delaySeconds }
        : { ...m, outcome: acked.has(m.id) || result.ackAll ? "ack" : "none" };
    deliveries.push(delivery);
    return delivery;
  });
}

/**
 * Delivers everything kept (and what that sends in turn), queue by queue, at most `rounds` times, to a
 * consumer with `env` (a test's bindings with more settings, as it gave the producer).
 */
export async function drainQueues(options: { retry?: boolean; rounds?: number; env?: Env } = {}): Promise<Delivery[]> {
  const done: Delivery[] = [];
  if (options.retry) waiting.push(...retrying.splice(0).map((m) => ({ ...m, attempts: m.attempts + 1 })));
  for (let round = 0; waiting.length && round < (options.rounds ?? 20); round++) {
    const now = waiting.splice(0);
    for (const queue of new Set(now.map((m) => m.queue))) {
      for (const d of await deliver(queue, now.filter((m) => m.queue === queue), options.env)) {
        done.push(d);
        if (d.outcome === "retry") retrying.push({ queue: d.queue, id: d.id, timestamp: d.timestamp, attempts: d.attempts, body: d.body });
      }
    }
  }
  return done;
}
