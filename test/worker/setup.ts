import { applyD1Migrations, env } from "cloudflare:test";
import { useLightScryptCostForTests } from "../../worker/services/passwords";
import { keepQueuedMessages } from "./helpers/queues";

// Storage is isolated per test file: every file starts from the migrated schema (universities included).
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

// Sign-ups hash at a light scrypt cost (the worker under test runs in this isolate, so this module is
// its module): the defaults cost ~0.3 s a hash on a 2-core machine, and the suite signs up hundreds.
// security.test.ts and auth.test.ts check the defaults themselves.
useLightScryptCostForTests(true);

// What the worker queues is kept and handed to its own queue() handler by drainQueues() (helpers/queues.ts),
// so a test reads the background work its requests caused without waiting on a clock.
keepQueuedMessages();
