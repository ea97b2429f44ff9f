/**
 * A push service at the HTTP boundary for worker tests: the worker's fetch to a 127.0.0.1 endpoint is
 * answered here (the worker under test runs in this isolate), recorded, and decrypted with the
 * browser's side of RFC 8291, so a test reads what a device would show.
 */
import { vi } from "vitest";

export interface Device {
  endpoint: string;
  p256dh: string;
  auth: string;
  privateKey: CryptoKey;
  publicRaw: Uint8Array<ArrayBuffer>;
  authRaw: Uint8Array<ArrayBuffer>;
}

export interface Received {
  endpoint: string;
  headers: Headers;
  body: Uint8Array<ArrayBuffer>;
}

const b64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
let devices = 0;

/** A browser's subscription: its own key pair and auth secret, an endpoint on the fake service. */
export async function newDevice(): Promise<Device> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair;
  const publicRaw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  const authRaw = crypto.getRandomValues(new Uint8Array(16));
  return { endpoint: `http://127.0.0.1:9/push/${++devices}-${crypto.randomUUID()}`, p256dh: b64url(publicRaw), auth: b64url(authRaw), privateKey: pair.privateKey, publicRaw, authRaw };
}

async function hkdf(salt: Uint8Array<ArrayBuffer>, ikm: Uint8Array<ArrayBuffer>, info: Uint8Array, bytes: number) {
  const key = await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt, info: join(info) }, key, bytes * 8));
}

const join = (...parts: Uint8Array[]): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** The browser's side: reads the aes128gcm header, derives the key and nonce, opens the record. */
export async function decrypt(device: Device, body: Uint8Array<ArrayBuffer>): Promise<string> {
  const salt = body.slice(0, 16);
  const idLength = body[20]!;
  const asPublic = body.slice(21, 21 + idLength);
  const asKey = await crypto.subtle.importKey("raw", asPublic, { name: "ECDH", namedCurve: "P-256" }, false, []);
  const ecdh = new Uint8Array(await crypto.subtle.deriveBits({ name: "ECDH", public: asKey } as unknown as Parameters<typeof crypto.subtle.deriveBits>[0], device.privateKey, 256));
  const te = new TextEncoder();
  const ikm = await hkdf(device.authRaw, ecdh, join(te.encode("WebPush: info\0"), device.publicRaw, asPublic), 32);
  const cek = await hkdf(salt, ikm, te.encode("Content-Encoding: aes128gcm\0"), 16);
  const nonce = await hkdf(salt, ikm, te.encode("Content-Encoding: nonce\0"), 12);
  const key = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["decrypt"]);
  const plain = new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: nonce }, key, body.slice(21 + idLength)));
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (plain[end] !== 2) throw new Error("not the last record");
  return new TextDecoder().decode(plain.slice(0, end));
}

/**
 * Intercepts fetches to 127.0.0.1 (the worker's posts to the push service). `answer` picks the
 * status per request (201 by default); everything else goes to the real fetch.
 */
export function pushService(answer: (endpoint: string, attempt: number) => Response = () => new Response(null, { status: 201 })) {
  const received: Received[] = [];
  const real = globalThis.fetch;
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init);
    if (!request.url.startsWith("http://127.0.0.1:9/push/")) return real(input as RequestInfo, init);
    received.push({ endpoint: request.url, headers: request.headers, body: new Uint8Array(await request.arrayBuffer()) });
    return answer(request.url, received.filter((r) => r.endpoint === request.url).length);
  });
  return { received, restore: () => spy.mockRestore() };
}
