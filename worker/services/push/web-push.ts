/**
 * The Web Push protocol on WebCrypto (docs/decisions/027): VAPID (RFC 8292, an ES256 JWT whose `aud`
 * is the endpoint's origin) and the `aes128gcm` payload encryption of RFC 8291 (one record: the
 * 86-byte header, then AES-128-GCM of the text, its 0x02 delimiter and padding). Written here because
 * the Worker-friendly packages we read either send the legacy `aesgcm` coding or are unpublished
 * snippets; test/tools/web-push-oracle.test.ts checks it against the Node `web-push` package.
 */
import { base64UrlToBytes, bytesToBase64Url } from "../../lib/encoding";

export interface PushTarget {
  endpoint: string;
  /** The browser's P-256 public key (uncompressed point) and auth secret, base64url. */
  p256dh: string;
  auth: string;
}

export interface VapidKeys {
  /** Uncompressed P-256 point, base64url (what the browser's applicationServerKey is). */
  publicKey: string;
  /** The private scalar d, base64url. */
  privateKey: string;
  /** A mailto: or https: contact the push service can reach. */
  subject: string;
}

export interface PushOptions {
  ttlSeconds: number;
  urgency: "very-low" | "low" | "normal" | "high";
  /** Replaces an undelivered push with the same topic (a burst in one conversation collapses to one). */
  topic?: string;
}

const text = new TextEncoder();
const RECORD_SIZE = 4096;

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function hkdf(salt: Uint8Array, ikm: Uint8Array, info: Uint8Array, bytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const key = await crypto.subtle.importKey("raw", concat(ikm), "HKDF", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt: concat(salt), info: concat(info) }, key, bytes * 8));
}

/** Checks a subscription's keys: a 65-byte uncompressed P-256 point and a 16-byte auth secret. */
export async function validKeys(p256dh: string, auth: string): Promise<boolean> {
  try {
    const point = base64UrlToBytes(p256dh);
    if (point.length !== 65 || point[0] !== 4 || base64UrlToBytes(auth).length !== 16) return false;
    await crypto.subtle.importKey("raw", concat(point), { name: "ECDH", namedCurve: "P-256" }, false, []);
    return true;
  } catch {
    return false;
  }
}

/**
 * RFC 8291 §3.4 and RFC 8188: `padTo` pads the plaintext (a record may be padded to hide its length).
 * `salt` and `ephemeral` are for tests that need a fixed output; the sender always uses fresh ones.
 */
export async function encryptPayload(
  target: Pick<PushTarget, "p256dh" | "auth">,
  plaintext: Uint8Array,
  fixed?: { salt: Uint8Array; ephemeral: CryptoKeyPair },
): Promise<Uint8Array<ArrayBuffer>> {
  const uaPublic = base64UrlToBytes(target.p256dh);
  const authSecret = base64UrlToBytes(target.auth);
  const salt = fixed?.salt ?? crypto.getRandomValues(new Uint8Array(16));
  const ephemeral = fixed?.ephemeral ?? ((await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair);
  const asPublic = new Uint8Array((await crypto.subtle.exportKey("raw", ephemeral.publicKey)) as ArrayBuffer);
  const uaKey = await crypto.subtle.importKey("raw", concat(uaPublic), { name: "ECDH", namedCurve: "P-256" }, false, []);
  const ecdhSecret = new Uint8Array(
    await crypto.subtle.deriveBits(
      // The runtime reads `public` (the workers types spell it `$public`).
      { name: "ECDH", public: uaKey } as unknown as Parameters<typeof crypto.subtle.deriveBits>[0],
      ephemeral.privateKey,
      256,
    ),
  );
  const ikm = await hkdf(authSecret, ecdhSecret, concat(text.encode("WebPush: info\0"), uaPublic, asPublic), 32);
  const cek = await hkdf(salt, ikm, text.encode("Content-Encoding: aes128gcm\0"), 16);
  const nonce = await hkdf(salt, ikm, text.encode("Content-Encoding: nonce\0"), 12);
  const key = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["encrypt"]);
  // One record, so it is the last: the 0x02 delimiter.
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv: nonce }, key, concat(plaintext, new Uint8Array([2]))));
  const header = new Uint8Array(16 + 4 + 1 + 65);
  header.set(salt, 0);
  new DataView(header.buffer).setUint32(16, RECORD_SIZE);
  header[20] = 65;
  header.set(asPublic, 21);
  return concat(header, sealed);
}

const b64Json = (value: unknown) => bytesToBase64Url(text.encode(JSON.stringify(value)));

const signingKeys = new Map<string, Promise<CryptoKey>>();
function signingKey(keys: VapidKeys): Promise<CryptoKey> {
  let key = signingKeys.get(keys.privateKey);
  if (!key) {
    const point = base64UrlToBytes(keys.publicKey);
    key = crypto.subtle.importKey(
      "jwk",
      { kty: "EC", crv: "P-256", x: bytesToBase64Url(point.slice(1, 33)), y: bytesToBase64Url(point.slice(33, 65)), d: keys.privateKey, ext: false },
      { name: "ECDSA", namedCurve: "P-256" },
      false,
      ["sign"],
    );
    signingKeys.set(keys.privateKey, key);
  }
  return key;
}

/** The VAPID Authorization header for an endpoint: `vapid t=<ES256 JWT>, k=<public key>`. */
export async function vapidAuthorization(endpoint: string, keys: VapidKeys, nowMs: number): Promise<string> {
  const unsigned = `${b64Json({ typ: "JWT", alg: "ES256" })}.${b64Json({ aud: new URL(endpoint).origin, exp: Math.floor(nowMs / 1000) + 12 * 3600, sub: keys.subject })}`;
  // WebCrypto's ECDSA signature is r || s, the form JWS wants.
  const signature = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, await signingKey(keys), text.encode(unsigned)));
  return `vapid t=${unsigned}.${bytesToBase64Url(signature)}, k=${keys.publicKey}`;
}

/** A push service's Topic: at most 32 base64url characters, so a hash of ours. */
export async function topicHeader(topic: string): Promise<string> {
  return bytesToBase64Url(new Uint8Array(await crypto.subtle.digest("SHA-256", text.encode(topic)))).slice(0, 32);
}

/** The request a push service expects for one encrypted payload. */
export async function pushRequest(target: PushTarget, payload: string, keys: VapidKeys, options: PushOptions, nowMs: number): Promise<Request> {
  const headers: Record<string, string> = {
    Authorization: await vapidAuthorization(target.endpoint, keys, nowMs),
    "Content-Encoding": "aes128gcm",
    "Content-Type": "application/octet-stream",
    TTL: String(options.ttlSeconds),
    Urgency: options.urgency,
  };
  if (options.topic) headers.Topic = await topicHeader(options.topic);
  return new Request(target.endpoint, { method: "POST", headers, body: await encryptPayload(target, text.encode(payload)) });
}
