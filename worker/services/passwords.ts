/**
 * Password hashing with scrypt (node:crypto, native under nodejs_compat). N=2^15, r=8, p=3 meets
 * OWASP's scrypt minimum (ASVS 5.0 points to the Password Storage Cheat Sheet) and needs 32 MiB,
 * well inside Workers' 128 MB. The parameters are stored beside each hash
 * (`scrypt$N$r$p$salt$hash`), so they can be raised later without breaking old hashes.
 */
import { scrypt, timingSafeEqual, randomBytes } from "node:crypto";

export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 3, keyLength: 32 } as const;

function derive(password: string, salt: Buffer, N: number, r: number, p: number, keyLength: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem must exceed 128 * N * r bytes (32 MiB for the defaults).
    scrypt(password.normalize("NFKC"), salt, keyLength, { N, r, p, maxmem: 256 * N * r }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const { N, r, p, keyLength } = SCRYPT_PARAMS;
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

/** True when a stored hash uses weaker parameters than today's, so it can be upgraded at next sign-in. */
export function needsRehash(stored: string): boolean {
  const [, n, r, p] = stored.split("$");
  return Number(n) < SCRYPT_PARAMS.N || Number(r) < SCRYPT_PARAMS.r || Number(p) < SCRYPT_PARAMS.p;
}
