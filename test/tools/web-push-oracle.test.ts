/**
 * The worker's Web Push encoder against the Node `web-push` package's own decoder (its http_ece):
 * what the worker sends must open the way a browser opens it (docs/decisions/027).
 */
import { createECDH, randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { encryptPayload, pushRequest } from "../../worker/services/push/web-push";

const require = createRequire(import.meta.url);
// http_ece is web-push's dependency: the decoder web-push itself is tested against.
const ece = require("http_ece") as { decrypt(buffer: Buffer, params: Record<string, unknown>): Buffer };
const webPush = require("web-push") as { generateVAPIDKeys(): { publicKey: string; privateKey: string } };

function browser() {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, target: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") } };
}

describe("aes128gcm against the web-push oracle", () => {
  it("http_ece decrypts what the worker encrypts, for short and long texts", async () => {
    for (const text of ["hi", "é€😀 ".repeat(200)]) {
      const b = browser();
      const body = await encryptPayload(b.target, new TextEncoder().encode(text));
      expect(body.subarray(16, 20)).toEqual(new Uint8Array([0, 0, 16, 0]));
      expect(body[20]).toBe(65);
      const opened = ece.decrypt(Buffer.from(body), { version: "aes128gcm", privateKey: b.ecdh, authSecret: b.auth });
      expect(opened.toString("utf8")).toBe(text);
    }
  });

  it("a tampered body or another browser's keys do not open", async () => {
    const b = browser();
    const body = await encryptPayload(b.target, new TextEncoder().encode("secret"));
    const tampered = Buffer.from(body);
    tampered[tampered.length - 1]! ^= 1;
    expect(() => ece.decrypt(tampered, { version: "aes128gcm", privateKey: b.ecdh, authSecret: b.auth })).toThrow();
    const other = browser();
    expect(() => ece.decrypt(Buffer.from(body), { version: "aes128gcm", privateKey: other.ecdh, authSecret: other.auth })).toThrow();
  });

  it("signs VAPID with keys in web-push's format (the keys `npx web-push generate-vapid-keys` prints)", async () => {
    const keys = webPush.generateVAPIDKeys();
    const b = browser();
    const request = await pushRequest({ endpoint: "https://fcm.googleapis.com/fcm/send/abc", ...b.target }, "{}", { ...keys, subject: "mailto:support@campusnest.app" }, { ttlSeconds: 60, urgency: "high", topic: "conversation:1" }, Date.now());
    const match = /^vapid t=([^.]+)\.([^.]+)\.([^,]+), k=(.+)$/.exec(request.headers.get("authorization")!);
    expect(match![4]).toBe(keys.publicKey);
    const claims = JSON.parse(Buffer.from(match![2]!, "base64url").toString()) as { aud: string; sub: string };
    expect(claims).toMatchObject({ aud: "https://fcm.googleapis.com", sub: "mailto:support@campusnest.app" });
    const point = Buffer.from(keys.publicKey, "base64url");
    const verifier = await crypto.subtle.importKey("raw", point, { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]);
    const ok = await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, verifier, Buffer.from(match![3]!, "base64url"), new TextEncoder().encode(`${match![1]}.${match![2]}`));
    expect(ok).toBe(true);
    const opened = ece.decrypt(Buffer.from(await request.arrayBuffer()), { version: "aes128gcm", privateKey: b.ecdh, authSecret: b.auth });
    expect(opened.toString()).toBe("{}");
  });
});
