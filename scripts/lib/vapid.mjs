/**
 * A fresh VAPID key pair for development and tests (docs/decisions/027): never a committed key.
 * Public: the uncompressed P-256 point; private: the scalar d; both base64url without padding.
 */
import { generateKeyPairSync } from "node:crypto";

export function generateVapidKeys() {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = privateKey.export({ format: "jwk" });
  const point = publicKey.export({ format: "der", type: "spki" }).subarray(-65);
  return { publicKey: Buffer.from(point).toString("base64url"), privateKey: String(jwk.d) };
}
