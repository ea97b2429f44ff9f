/**
 * Password hashing with scrypt (node:crypto, native under nodejs_compat). N=2^13, r=8, p=10 is
 * OWASP's lower-memory equivalent of its scrypt minimum (ASVS 5.0 points to the Password Storage
 * Cheat Sheet): 8 MiB per hash (128 * N * r bytes) instead of the 32 MiB of N=2^15, r=8, p=3, for the
 * same work. One Workers isolate has 128 MB for every request it serves at once, so at most
 * `MAX_CONCURRENT_HASHES` hashes run at once per isolate and the rest wait their turn (a sign-up rush
 * behind one campus address lands on few isolates). The parameters are stored beside each hash
 * (`scrypt$N$r$p$salt$hash`): old hashes still verify, and `needsRehash` upgrades them at sign-in.
 * The API suite hashes at a light cost (`useLightScryptCostForTests`), a few tests at these defaults.
 */
import { scrypt, timingSafeEqual, randomBytes } from "node:crypto";

export const SCRYPT_PARAMS = { N: 2 ** 13, r: 8, p: 10, keyLength: 32 } as const;

type ScryptCost = { readonly N: number; readonly r: number; readonly p: number };

/** The API suite's cost: about 1/10,000 of the defaults' work, so hundreds of sign-ups cost nothing. */
export const LIGHT_SCRYPT_COST: ScryptCost = { N: 2 ** 4, r: 1, p: 1 };

/** The cost new hashes are made with: always SCRYPT_PARAMS in the worker (see useLightScryptCostForTests). */
let cost: ScryptCost = SCRYPT_PARAMS;

/**
 * For the API suite only (test/worker/setup.ts, in the tests' own isolate): hash new passwords at
 * LIGHT_SCRYPT_COST, or at the defaults again with `false`. No worker code calls it, and it is no
 * binding or var, so no deployment's configuration can lower the cost: only code can, and only
 * code under test/ does.
 */
export function useLightScryptCostForTests(light: boolean): void {
  cost = light ? LIGHT_SCRYPT_COST : SCRYPT_PARAMS;
}

/** Hashes running at once in this isolate: 2 x 8 MiB, whatever the burst (docs/decisions/004). */
export const MAX_CONCURRENT_HASHES = 2;

/** How often a queued hash looks for a free slot, and when a slot whose request never finished is reclaimed. */
const SLOT_POLL_MS = 10;
const SLOT_STALE_MS = 30_000;

const slots = new Map<number, number>(); // slot id -> when its hash started
let nextSlotId = 0;
let mostAtOnce = 0;

function liveSlots(now: number): number {
  // A request cancelled mid-hash never runs its `finally`: its slot must not be lost for good.
  for (const [id, startedAt] of slots) if (now - startedAt > SLOT_STALE_MS) slots.delete(id);
  return slots.size;
}

/**
 * Runs `work` once fewer than MAX_CONCURRENT_HASHES hashes are running in this isolate. Each waiter
 * polls on its own timer rather than awaiting a promise another request resolves: Workers cancels a
 * request that waits only on another request's promise as hung.
 */
async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
  while (liveSlots(Date.now()) >= MAX_CONCURRENT_HASHES) await new Promise((resolve) => setTimeout(resolve, SLOT_POLL_MS));
  // No await between the check and the claim: two waiters cannot both take the last slot.
  const id = nextSlotId++;
  slots.set(id, Date.now());
  mostAtOnce = Math.max(mostAtOnce, slots.size);
  try {
    return await work();
  } finally {
    slots.delete(id);
  }
}

/** For tests: the most hashes this isolate has run at once since the last reset. */
export function hashConcurrencyPeak({ reset = false } = {}): number {
  const peak = mostAtOnce;
  if (reset) mostAtOnce = slots.size;
  return peak;
}

function derive(password: string, salt: Buffer, N: number, r: number, p: number, keyLength: number): Promise<Buffer> {
  return withHashSlot(
    () =>
      new Promise((resolve, reject) => {
        // maxmem must exceed 128 * N * r bytes (8 MiB today, 32 MiB for the older N=2^15, p=3 hashes; docs/decisions/004).
        scrypt(password.normalize("NFKC"), salt, keyLength, { N, r, p, maxmem: 256 * N * r }, (err, key) => (err ? reject(err) : resolve(key)));
      }),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const { N, r, p } = cost;
  const { keyLength } = SCRYPT_PARAMS;
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, r, p, keyLength);
  return ["scrypt", N, r, p, salt.toString("base64"), key.toString("base64")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const actual = await derive(password, Buffer.from(salt, "base64"), Number(n), Number(r), Number(p), expected.length);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

const madeWith = (stored: string, { N, r, p }: ScryptCost) => {
  const [, n, sr, sp] = stored.split("$");
  return Number(n) === N && Number(sr) === r && Number(sp) === p;
};

/**
 * True when a stored hash was made with other parameters than today's, so it is upgraded at the next
 * sign-in (the N=2^15, p=3 hashes made before decision 004 included: they cost 32 MiB to check). In the
 * worker today's are SCRYPT_PARAMS. Under the light test cost, neither light nor default hashes are
 * rehashed: a default hash is never downgraded, and a light one is not rehashed at every sign-in.
 */
export function needsRehash(stored: string): boolean {
  return !madeWith(stored, cost) && !madeWith(stored, SCRYPT_PARAMS);
}
