/** Staff tokens ended by logout before their expiry (revoked_admin_tokens; middleware/require-admin.ts). */
import { eq, lt } from "drizzle-orm";
import type { Db } from "../client";
import { revokedAdminTokens } from "../schema";

export const isAdminTokenRevoked = async (db: Db, jti: string): Promise<boolean> =>
  !!(await db.select({ jti: revokedAdminTokens.jti }).from(revokedAdminTokens).where(eq(revokedAdminTokens.jti, jti)).get());

/** Revokes a token (a second logout with it changes nothing). */
export const insertAdminTokenRevocation = (db: Db, jti: string, expiresAt: string) =>
  db.insert(revokedAdminTokens).values({ jti, expiresAt }).onConflictDoNothing();

/** For the cron: a revoked token past its expiry is refused by its signature's clock anyway. */
export const deleteExpiredAdminRevocations = (db: Db, nowIso: string) => db.delete(revokedAdminTokens).where(lt(revokedAdminTokens.expiresAt, nowIso));
