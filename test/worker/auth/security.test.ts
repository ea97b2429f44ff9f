import { env } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword, LIGHT_SCRYPT_COST, needsRehash, useLightScryptCostForTests, verifyPassword } from "../../../worker/services/passwords";
import { signAccessToken, verifyAccessClaim } from "../../../worker/services/tokens";

const verifyAccessToken = async (secret: string, token: string | null) => (await verifyAccessClaim(secret, token))?.userId ?? null;
import { newId } from "../../../worker/lib/ids";

describe("passwords, at the production cost", () => {
  // test/worker/setup.ts lightens the cost for the rest of the suite; these run at the defaults.
  beforeAll(() => useLightScryptCostForTests(false));
  afterAll(() => useLightScryptCostForTests(true));

  it("hash with scrypt N=2^13 r=8 p=10 (8 MiB), parameters stored beside a per-user salt", async () => {
    const a = await hashPassword("correct horse");
    const b = await hashPassword("correct horse");
    expect(a).toMatch(/^scrypt\$8192\$8\$10\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("correct horse", a)).toBe(true);
    expect(await verifyPassword("correct horsf", a)).toBe(false);
    expect(await verifyPassword("correct horse", "garbage")).toBe(false);
    expect(needsRehash(a)).toBe(false);
    expect(needsRehash("scrypt$16384$8$1$c2FsdA==$aGFzaA==")).toBe(true);
    // The older parameters docs/decisions/004 replaced (32 MiB a hash) are upgraded too, though N is larger.
    expect(needsRehash("scrypt$32768$8$3$c2FsdA==$aGFzaA==")).toBe(true);
    // A hash of the tests' light cost is weaker than today's: upgraded too.
    expect(needsRehash(`scrypt$${LIGHT_SCRYPT_COST.N}$${LIGHT_SCRYPT_COST.r}$${LIGHT_SCRYPT_COST.p}$c2FsdA==$aGFzaA==`)).toBe(true);
  });
});

describe("passwords, at the suite's light cost", () => {
  it("verify, and are neither rehashed at every sign-in nor downgrade a default hash", async () => {
    const light = await hashPassword("correct horse");
    expect(light).toMatch(new RegExp(`^scrypt\\$${LIGHT_SCRYPT_COST.N}\\$${LIGHT_SCRYPT_COST.r}\\$${LIGHT_SCRYPT_COST.p}\\$`));
    expect(await verifyPassword("correct horse", light)).toBe(true);
    expect(await verifyPassword("correct horsf", light)).toBe(false);
    expect(needsRehash(light)).toBe(false);
    expect(needsRehash("scrypt$8192$8$10$c2FsdA==$aGFzaA==")).toBe(false);
    expect(needsRehash("scrypt$32768$8$3$c2FsdA==$aGFzaA==")).toBe(true);
  });
});

describe("access tokens", () => {
  it("verify only untampered, unexpired tokens signed with our secret", async () => {
    const token = await signAccessToken(env.JWT_SECRET, "user-1");
    expect(await verifyAccessToken(env.JWT_SECRET, token)).toBe("user-1");

    const [header, payload, signature] = token.split(".");
    const forged = JSON.parse(atob(payload!.replace(/-/g, "+").replace(/_/g, "/")));
    forged.sub = "user-2";
    const tampered = [header, btoa(JSON.stringify(forged)).replace(/=+$/, ""), signature].join(".");
    expect(await verifyAccessToken(env.JWT_SECRET, tampered)).toBeNull();

    expect(await verifyAccessToken("another-secret-0123456789abcdef0123", token)).toBeNull();
    expect(await verifyAccessToken(env.JWT_SECRET, await signAccessToken(env.JWT_SECRET, "user-1", -10))).toBeNull();
    expect(await verifyAccessToken(env.JWT_SECRET, null)).toBeNull();
  });

  it("carry the user's token version; a token without one is version 0", async () => {
    expect(await verifyAccessClaim(env.JWT_SECRET, await signAccessToken(env.JWT_SECRET, "user-1", 60, 3))).toEqual({ userId: "user-1", tokenVersion: 3 });
    expect(await verifyAccessClaim(env.JWT_SECRET, await signAccessToken(env.JWT_SECRET, "user-1"))).toEqual({ userId: "user-1", tokenVersion: 0 });
  });
});

describe("ids", () => {
  it("are opaque 21-character base62 strings", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId()));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[0-9A-Za-z]{21}$/);
  });
});
