/**
 * The smaller hardening items (docs/decisions/022): text that draws nothing is no text, every API 4xx says why in
 * `detail`, a path id that cannot be an id is 404, the configuration refuses to serve production
 * without its public address and keeps development routes to development, and the listing photos'
 * body is capped without ever being held whole.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../../../worker/app";
import { DEV_WEBHOOK_SECRET } from "../../../worker/env";
import { signWebhookPayload } from "../../../worker/services/stripe/webhook";
import { cleanText } from "../../../worker/contract/zod";
import { withErrorDetail } from "../../../worker/lib/errors";
import { BODY_LIMITS, cappedStream } from "../../../worker/middleware/body-limit";
import { adminLogin, api, authed, dataUrl, freshIp, JPEG_1x1, json, type Session, signUp } from "../helpers";

let student: Session;
let other: Session;
let adminToken: string;

beforeAll(async () => {
  student = await signUp("hardening@ufl.edu");
  other = await signUp("hardening-other@ufl.edu");
  await env.DB.prepare("UPDATE users SET id_verification_status = 'verified' WHERE id = ?").bind(student.user.id).run();
  adminToken = await adminLogin();
});

const send = (s: Session | null, method: string, path: string, body?: unknown) =>
  api(path, {
    method,
    headers: { "content-type": "application/json", "cf-connecting-ip": freshIp(), ...(s ? { Authorization: `Bearer ${s.access_token}` } : {}) },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });

const INVISIBLE_ONLY = ["\0\0\0\0", "\u200b\u200b\u200b", "\u202e\u2066\u2069\u202c", " \u00ad\ufeff\u2060 ", "\u3164\u3164", "\u200d\ufe0f", "\t\r\n\x07"];

describe("text that draws nothing is refused wherever text is required", () => {
  const listing = (title: string, extra: Record<string, unknown> = {}) => ({
    title,
    description: "A bright room",
    unit_type: "2x2",
    monthly_rent: 850,
    address: "12 Oak St, Gainesville, FL",
    lease_term: "spring",
    university_id: 3,
    pictures: ["/api/v1/images/listings/x.jpg"],
    ...extra,
  });

  it("a listing's title, description and address: 422 with the spec's message, for every kind of invisible text", async () => {
    for (const blank of INVISIBLE_ONLY) {
      for (const [field, message] of [
        ["title", "Title is required"],
        ["description", "Description is required"],
        ["address", "Address is required"],
      ] as const) {
        const res = await send(student, "POST", "/api/v1/subleases/", listing("Sunny room", { [field]: blank }));
        expect(res.status, `${field} ${JSON.stringify(blank)}`).toBe(422);
        const body = await json<{ detail: string; errors: { path: string; message: string }[] }>(res);
        expect(body.errors).toContainEqual({ path: field, message });
      }
    }
  });

  it("names at sign-up and profile edit, a message, feedback and a saved search's name", async () => {
    for (const blank of INVISIBLE_ONLY) {
      const label = JSON.stringify(blank);
      const reg = await send(null, "POST", "/api/v1/auth/register", { email: "blank-name@ufl.edu", password: "secret-pass-1", first_name: blank, last_name: "User" });
      expect(reg.status, label).toBe(422);
      expect((await json<{ detail: string }>(reg)).detail).toBe("First name is required");

      const profile = await send(student, "PATCH", "/api/v1/users/profile", { last_name: blank });
      expect(profile.status, label).toBe(422);
      expect((await json<{ detail: string }>(profile)).detail).toBe("Last name is required");

      const message = await send(student, "POST", `/api/v1/messages/conversations/${"a".repeat(21)}/send`, { text: blank });
      expect(message.status, label).toBe(422);
      expect((await json<{ detail: string }>(message)).detail).toBe("Message cannot be empty");

      const feedback = await send(null, "POST", "/api/v1/feedback", { email: "someone@ufl.edu", message: blank });
      expect(feedback.status, label).toBe(422);
      expect((await json<{ detail: string }>(feedback)).detail).toBe("Please fill in all fields");

      const search = await send(student, "POST", "/api/v1/saved-searches", { name: blank, query: "q=oak" });
      expect(search.status, label).toBe(422);
      expect((await json<{ detail: string }>(search)).detail).toBe("Name is required");
    }
  });

  it("control and format characters inside visible text are removed, newlines kept where text has lines", async () => {
    const res = await send(student, "PATCH", "/api/v1/users/profile", { first_name: "\u202eMa\0ya\u200b " });
    expect(res.status).toBe(200);
    expect((await json<{ data: { first_name: string } }>(res)).data.first_name).toBe("Maya");
    expect(cleanText("Line one\r\nLine\x07 two\u2066", true)).toBe("Line one\nLine two");
    expect(cleanText("Line one\nLine two")).toBe("Line one Line two");
    // What real text needs stays: emoji sequences (zero-width joiner), Persian (non-joiner), accents.
    expect(cleanText("👩\u200d🎓 Café می\u200cخواهم")).toBe("👩\u200d🎓 Café می\u200cخواهم");
  });
});

describe("every API 4xx answers {detail}", () => {
  it("a sweep of malformed requests across routes: never a 5xx, always a readable detail", async () => {
    const notBase64 = { images: [{ filename: "a.jpg", content_type: "image/jpeg", image_data: "data:image/jpeg;base64,%%%% not base64 %%%%" }] };
    const cases: [Session | null, string, string, unknown?][] = [
      [student, "POST", "/api/v1/upload/multiple-base64", notBase64],
      [student, "POST", "/api/v1/upload/multiple-base64", "{\"images\": [ {\"filename\": \"a.jpg\""],
      [student, "POST", "/api/v1/upload/multiple-base64", "[]"],
      [student, "POST", "/api/v1/upload/multiple-base64", { images: "x" }],
      [student, "POST", "/api/v1/upload/multiple-base64", { images: [{ filename: 5 }] }],
      [null, "POST", "/api/v1/upload/multiple-base64", notBase64],
      [null, "POST", "/api/v1/auth/register", "not json"],
      [null, "POST", "/api/v1/auth/login", "{"],
      [null, "POST", "/api/v1/auth/login", "null"],
      [null, "POST", "/api/v1/feedback", { email: "a@b.co", message: "x".repeat(70 * 1024) }],
      [null, "GET", "/api/v1/nothing-here"],
      [null, "DELETE", "/api/v1/universities"],
      [null, "PUT", "/api/v1/health"],
      [null, "GET", "/api/v1/subleases/%E0%A4%A"],
      [null, "GET", "/api/v1/subleases?q=%E0%A4%A&limit=abc"],
      [null, "GET", "/api/v1/subleases?min_rent=-5&sort=sideways"],
      [null, "GET", `/api/v1/subleases/${"x".repeat(8000)}`],
      [null, "GET", "/api/v1/messages/conversations"],
      [student, "GET", "/api/v1/admin/stats"],
      [null, "POST", "/api/v1/promotions/webhook", "{}"],
      [student, "POST", "/api/v1/reports", { kind: "spaceship" }],
      [student, "PATCH", "/api/v1/users/profile", "[1,2"],
      [null, "GET", "/api/v1/images/..%2f..%2fsecret"],
    ];
    for (const [who, method, path, body] of cases) {
      const res = await send(who, method, path, body);
      const label = `${method} ${path.slice(0, 60)}`;
      expect(res.status, label).toBeGreaterThanOrEqual(400);
      expect(res.status, label).toBeLessThan(500);
      const answer = await json<{ detail: unknown }>(res);
      expect(typeof answer.detail, label).toBe("string");
      expect((answer.detail as string).length, label).toBeGreaterThan(0);
    }
  });

  it("photos that all fail answer 400 with the first failure as detail, and still list them", async () => {
    const res = await send(student, "POST", "/api/v1/upload/multiple-base64", { images: [{ filename: "a.jpg", image_data: "data:image/jpeg;base64,@@@@" }] });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({
      detail: "The file is empty or not a valid image",
      uploaded_files: [],
      failed_files: [{ filename: "a.jpg", error: "The file is empty or not a valid image" }],
    });
  });

  it("an error answer without detail gains one; one with detail is left as it is", async () => {
    const text = await withErrorDetail(new Response("404 Not Found", { status: 404, headers: { "content-type": "text/plain" } }));
    expect(text.status).toBe(404);
    expect(await text.json()).toEqual({ detail: "Not found" });
    const lists = await withErrorDetail(Response.json({ failed_files: [] }, { status: 400 }));
    expect(await lists.json()).toEqual({ failed_files: [], detail: "Bad request" });
    const empty = await withErrorDetail(new Response(null, { status: 413 }));
    expect(await empty.json()).toEqual({ detail: "The request is too large." });
    const ours = Response.json({ detail: "Listing not found" }, { status: 404 });
    expect(await withErrorDetail(ours)).toBe(ours);
  });
});

describe("a path id that cannot be an id is 404 (a listing's: Listing not found, as an unknown one)", () => {
  const BAD_IDS = ["%00", "%00abc", "x".repeat(22), "a%20b", "%E2%80%AE", "abc%27--", "%E0%A4%A"];

  it("on listing, user, conversation and admin conversation routes, before the handler runs", async () => {
    const routes: [Session | "admin" | null, string, (id: string) => string][] = [
      [null, "GET", (id) => `/api/v1/subleases/${id}`],
      [student, "PATCH", (id) => `/api/v1/subleases/${id}`],
      [null, "GET", (id) => `/api/v1/users/${id}`],
      [student, "GET", (id) => `/api/v1/messages/conversations/${id}/messages`],
      [student, "POST", (id) => `/api/v1/messages/conversations/${id}/read`],
      [student, "GET", (id) => `/api/v1/messages/conversations/with/${id}`],
      ["admin", "GET", (id) => `/api/v1/admin/conversations/${id}/messages`],
      [student, "DELETE", (id) => `/api/v1/favorites/${id}`],
      [student, "GET", (id) => `/api/v1/promotions/status/${id}`],
    ];
    for (const [who, method, path] of routes) {
      for (const id of BAD_IDS) {
        const init: RequestInit = { method, headers: { "content-type": "application/json" }, body: method === "GET" ? undefined : "{}" };
        const res = await api(path(id), who === "admin" ? authed(adminToken, init) : who ? authed(who.access_token, init) : init);
        expect(res.status, `${method} ${path(id)}`).toBe(404);
        const listing = /subleases|favorites|promotions\/status/.test(path("x"));
        expect(await json(res), `${method} ${path(id)}`).toEqual({ detail: listing ? "Listing not found" : "Not found" });
      }
    }
  });

  it("well-formed ids still reach their handlers, and named routes beside an :id route are not ids", async () => {
    const admin = await api(`/api/v1/admin/conversations/${"a".repeat(21)}/messages`, authed(adminToken));
    expect(admin.status).not.toBe(500);
    expect((await api(`/api/v1/users/${other.user.id}`)).status).toBe(200);
    // "stats" and "profile" sit beside users/:id: they are routes, not ids.
    expect((await api("/api/v1/users/stats", authed(student.access_token))).status).toBe(200);
    expect((await api("/api/v1/users/profile", authed(student.access_token))).status).toBe(200);
    // An unknown listing id and a malformed one read the same.
    for (const id of ["unknown-id", "%00", "x".repeat(22)]) {
      const res = await api(`/api/v1/subleases/${id}`);
      expect(res.status, id).toBe(404);
      expect(await json(res), id).toEqual({ detail: "Listing not found" });
    }
  });
});

describe("source maps", () => {
  it("are never served, even when a build left one among the assets", async () => {
    const assets = { fetch: vi.fn(async () => new Response("{\"version\":3}", { status: 200, headers: { "Content-Type": "application/json" } })) };
    for (const path of ["/assets/0dHj8wXq.js.map", "/assets/index.css.map", "/staff.js.MAP"]) {
      const res = await createApp().fetch(new Request(`http://localhost${path}`), { ...env, ASSETS: assets } as unknown as Env);
      expect(res.status, path).toBe(404);
      expect(await json(res)).toEqual({ detail: "Not found" });
    }
    expect(assets.fetch).not.toHaveBeenCalled();
  });
});

describe("configuration", () => {
  const production = { ENVIRONMENT: "production", STRIPE_SECRET_KEY: "sk_test_config", STRIPE_WEBHOOK_SECRET: "whsec_config_test" };

  it("production refuses to serve without an absolute https:// PUBLIC_BASE_URL, and names it", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    for (const base of ["", "   ", "/", "campusnest.app", "//campusnest.app", "http://campusnest.app", "https://", "https://campusnest.app/?x=1", "javascript:alert(1)"]) {
      const res = await createApp().fetch(new Request("http://localhost/api/health"), { ...env, ...production, PUBLIC_BASE_URL: base });
      expect(res.status, JSON.stringify(base)).toBe(500);
      expect((await json<{ detail: string }>(res)).detail, base).toContain("production requires PUBLIC_BASE_URL");
    }
    const { PUBLIC_BASE_URL: _omitted, ...withoutIt } = env;
    const missing = await createApp().fetch(new Request("http://localhost/api/health"), { ...withoutIt, ...production } as unknown as Env);
    expect(missing.status).toBe(500);
    // A staging deployment (ENVIRONMENT=test) sends real email too: the same rule.
    const staging = await createApp().fetch(new Request("http://localhost/api/health"), { ...env, ENVIRONMENT: "test", PUBLIC_BASE_URL: "", STRIPE_WEBHOOK_SECRET: "" });
    expect(staging.status).toBe(500);
    expect((await json<{ detail: string }>(staging)).detail).toContain("test requires PUBLIC_BASE_URL");
    for (const base of ["https://campusnest.app", "https://campusnest.app/", "https://staging.campusnest.app/app"]) {
      const res = await createApp().fetch(new Request("http://localhost/api/health"), { ...env, ...production, PUBLIC_BASE_URL: base });
      expect(res.status, base).toBe(200);
    }
  });

  it("development secrets only in development: test refuses the published ones, and without Stripe keys refuses every webhook", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const staging = { ENVIRONMENT: "test", PUBLIC_BASE_URL: "https://staging.campusnest.example" };
    // A staging deployment that copied .dev.vars does not start.
    const copied = await createApp().fetch(new Request("http://localhost/api/health"), { ...env, ...staging, STRIPE_WEBHOOK_SECRET: DEV_WEBHOOK_SECRET });
    expect(copied.status).toBe(500);
    expect((await json<{ detail: string }>(copied)).detail).toContain("STRIPE_WEBHOOK_SECRET is the published development value");
    // Without Stripe keys, an event signed with the development secret (a forged payment) is refused in test...
    const event = JSON.stringify({ id: "evt_forged", object: "event", created: Math.floor(Date.now() / 1000), type: "invoice.paid", data: { object: { id: "in_forged", object: "invoice" } } });
    const deliver = async (bindings: Record<string, string>) =>
      createApp().fetch(
        new Request("http://localhost/api/v1/promotions/webhook", {
          method: "POST",
          body: event,
          headers: { "content-type": "application/json", "stripe-signature": await signWebhookPayload(DEV_WEBHOOK_SECRET, event) },
        }),
        { ...env, ...bindings, STRIPE_SECRET_KEY: "", STRIPE_WEBHOOK_SECRET: "" },
      );
    const refused = await deliver(staging);
    expect(refused.status).toBe(400);
    expect(await json(refused)).toEqual({ detail: "Invalid signature" });
    // ...while development's test checkout signs with it and is heard.
    expect((await deliver({ ENVIRONMENT: "development" })).status).toBe(200);
  });

  it("only ENVIRONMENT=development serves the development routes: test and production answer 404", async () => {
    for (const environment of ["test", "production"]) {
      const bindings = { ...env, ...production, PUBLIC_BASE_URL: "https://campusnest.example", ENVIRONMENT: environment };
      for (const [method, path] of [
        ["GET", "/api/v1/dev/emails"],
        ["POST", "/api/v1/dev/seed"],
        ["GET", "/dev/checkout/cs_test_1"],
      ] as const) {
        const res = await createApp().fetch(new Request(`http://localhost${path}`, { method }), bindings);
        expect(res.status, `${environment} ${path}`).toBe(404);
      }
    }
    // The tests themselves run as development: the mailbox answers.
    expect((await api("/api/v1/dev/emails")).status).toBe(200);
  });
});

describe("the listing photos' body is capped without being held whole", () => {
  const CHUNK = 1024 * 1024;
  /** An endless body: `head`, then base64-looking bytes forever. Counts what the server pulled. */
  function endless(head: string) {
    const pulled = { bytes: 0 };
    let sentHead = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = sentHead ? new Uint8Array(CHUNK).fill(0x41) : new TextEncoder().encode(head);
        sentHead = true;
        pulled.bytes += chunk.length;
        controller.enqueue(chunk);
      },
    });
    return { stream, pulled };
  }
  const storedFor = async (s: Session) => (await env.IMAGES.list({ prefix: `listings/${s.user.id}_` })).objects.length;

  it("a declared Content-Length over the cap is refused before the body is read", async () => {
    const { stream, pulled } = endless('{"images":[{"filename":"a.jpg","image_data":"');
    const res = await api("/api/v1/upload/multiple-base64", {
      method: "POST",
      headers: { Authorization: `Bearer ${student.access_token}`, "content-type": "application/json", "content-length": String(BODY_LIMITS.listingPhotos + 1) },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect((await json<{ detail: string }>(res)).detail).toMatch(/too large/);
    expect(pulled.bytes).toBeLessThanOrEqual(CHUNK * 2);
  });

  /** `body` in 64 KB pieces with its length declared, as a browser sends it; `ended` once the server pulled past its last byte. */
  function declared(body: string) {
    const bytes = new TextEncoder().encode(body);
    const seen = { pulled: 0, ended: false };
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (seen.pulled >= bytes.length) {
          seen.ended = true;
          return controller.close();
        }
        const part = bytes.slice(seen.pulled, seen.pulled + 64 * 1024);
        seen.pulled += part.length;
        controller.enqueue(part);
      },
    });
    return { stream, seen, length: bytes.length };
  }

  // A refusal that leaves a body half read broke `wrangler dev`: its proxy lost the connection and
  // held the next request, anyone's, until another arrived (decision 025).
  it("a refused upload reads its declared body to the end before answering: refused by an entry, by its size, unread", async () => {
    const filler = "A".repeat(3 * 1024 * 1024);
    for (const [session, body, status] of [
      [student, `{"images":[{"filename":5},{"filename":"b.jpg","image_data":"${filler}"}]}`, 422],
      [student, `{"images":[{"filename":"a.jpg","image_data":"${"A".repeat(BODY_LIMITS.listingPhoto)}"}]}`, 413],
      [student, `{"images":[{"filename":"a.jpg"]]]${filler}`, 400],
      [null, `{"images":[{"filename":"a.jpg","image_data":"${filler}"}]}`, 401],
    ] as const) {
      const { stream, seen, length } = declared(body);
      const headers: Record<string, string> = { "content-type": "application/json", "content-length": String(length) };
      if (session) headers.Authorization = `Bearer ${session.access_token}`;
      const res = await api("/api/v1/upload/multiple-base64", { method: "POST", headers, body: stream, duplex: "half" } as RequestInit);
      expect(res.status, body.slice(0, 40)).toBe(status);
      expect(seen, body.slice(0, 40)).toEqual({ pulled: length, ended: true });
    }
  });

  it("a chunked body with one endless image is cut off once that image passes its own cap", async () => {
    const { stream, pulled } = endless('{"images":[{"filename":"a.jpg","image_data":"data:image/jpeg;base64,');
    const res = await api("/api/v1/upload/multiple-base64", { method: "POST", headers: { Authorization: `Bearer ${student.access_token}` }, body: stream, duplex: "half" } as RequestInit);
    expect(res.status).toBe(413);
    expect(await json(res)).toEqual({ detail: "Each image must be less than 10MB" });
    expect(pulled.bytes).toBeLessThan(BODY_LIMITS.listingPhoto + 3 * CHUNK);
  });

  it("a chunked body of many large entries is cut off at the request's cap (counted, never buffered), and stores nothing", async () => {
    // Entries just under the per-image cap (each fails as too big without being decoded), forever.
    const entry = `{"filename":"big.jpg","image_data":"${"A".repeat(BODY_LIMITS.listingPhoto - 200)}"}`;
    const encoded = new TextEncoder().encode(entry);
    let sent = 0;
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const part = sent === 0 ? new TextEncoder().encode('{"images":[') : encoded;
        const separator = sent > 1 ? new TextEncoder().encode(",") : new Uint8Array();
        sent++;
        pulled += part.length + separator.length;
        if (separator.length) controller.enqueue(separator);
        controller.enqueue(part);
      },
    });
    const before = await storedFor(student);
    const res = await api("/api/v1/upload/multiple-base64", { method: "POST", headers: { Authorization: `Bearer ${student.access_token}` }, body: stream, duplex: "half" } as RequestInit);
    // Ten entries fit under the cap; the 11th passes it before it ends: 413, never read whole.
    expect(res.status).toBe(413);
    expect((await json<{ detail: string }>(res)).detail).toMatch(/^The request is too large/);
    expect(sent).toBeGreaterThan(10);
    expect(pulled).toBeLessThan(BODY_LIMITS.listingPhotos + 2 * encoded.length);
    expect(await storedFor(student)).toBe(before);
  });

  it("the counter itself: passes bytes through to the cap, then errors with the 413", async () => {
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(new Uint8Array(10));
        controller.close();
      },
    });
    const reader = cappedStream(source, 35).getReader();
    const seen: number[] = [];
    await expect(
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          seen.push(value.length);
        }
      })(),
    ).rejects.toMatchObject({ status: 413 });
    expect(seen).toEqual([10, 10, 10]);
  });

  it("a valid body streamed in awkward pieces uploads every image: split strings, escapes, other keys", async () => {
    const body = JSON.stringify({
      before: { images: ["not these"], n: [1, [2, { x: "]}" }]] },
      images: [
        { filename: 'room "one" \\ é.jpg', content_type: "image/jpeg", image_data: dataUrl(JPEG_1x1) },
        { content_type: "image/jpeg", image_data: dataUrl(JPEG_1x1), filename: "two.jpg" },
      ],
      after: "images",
    }).replace('"images":[', '"images" :\n [ ');
    const bytes = new TextEncoder().encode(body);
    const sizes = [1, 2, 3, 5, 7, 11, 13];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0, i = 0; at < bytes.length; i++) {
          const size = sizes[i % sizes.length]!;
          controller.enqueue(bytes.slice(at, at + size));
          at += size;
        }
        controller.close();
      },
    });
    const res = await api("/api/v1/upload/multiple-base64", { method: "POST", headers: { Authorization: `Bearer ${student.access_token}` }, body: stream, duplex: "half" } as RequestInit);
    expect(res.status).toBe(200);
    const result = await json<{ uploaded_files: { filename: string; url: string }[]; failed_files: unknown[] }>(res);
    expect(result.uploaded_files.map((f) => f.filename)).toEqual(['room "one" \\ é.jpg', "two.jpg"]);
    expect(result.failed_files).toEqual([]);
    expect((await api(result.uploaded_files[1]!.url)).status).toBe(200);
  });

  it("a body that declares its true Content-Length (as browsers do) streams through and uploads", async () => {
    const body = new TextEncoder().encode(JSON.stringify({ images: [{ filename: "declared.jpg", image_data: dataUrl(JPEG_1x1) }] }));
    const res = await api("/api/v1/upload/multiple-base64", {
      method: "POST",
      headers: { Authorization: `Bearer ${student.access_token}`, "content-type": "application/json", "content-length": String(body.length) },
      body,
    });
    expect(res.status).toBe(200);
    expect((await json<{ uploaded_files: { filename: string }[] }>(res)).uploaded_files.map((f) => f.filename)).toEqual(["declared.jpg"]);
  });

  it("an entry refused half way (422) removes the images already stored for the request", async () => {
    const before = await storedFor(other);
    const good = { filename: "ok.jpg", image_data: dataUrl(JPEG_1x1) };
    const res = await send(other, "POST", "/api/v1/upload/multiple-base64", { images: [good, good, { filename: "\u200b", image_data: dataUrl(JPEG_1x1) }] });
    expect(res.status).toBe(422);
    expect((await json<{ errors: { path: string }[] }>(res)).errors[0]!.path).toBe("images.2.filename");
    expect(await storedFor(other)).toBe(before);
    const eleven = await send(other, "POST", "/api/v1/upload/multiple-base64", { images: Array.from({ length: 11 }, () => good) });
    expect(eleven.status).toBe(422);
    expect((await json<{ detail: string }>(eleven)).detail).toBe("Maximum 10 photos allowed");
    expect(await storedFor(other)).toBe(before);
  });
});
