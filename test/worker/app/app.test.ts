import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../../../worker/app";
import { PUBLISHED_DEV_SECRETS } from "../../../worker/env";
import devVarsExample from "../../../.dev.vars.example?raw";
import { api, authed, json, post, signUp } from "../helpers";

afterEach(() => vi.restoreAllMocks());

describe("the one error shape", () => {
  it("unknown /api paths are 404 {detail: 'Not found'}", async () => {
    for (const path of ["/api/nope", "/api/v1/nope/deeper", "/api/v1/"]) {
      const res = await api(path);
      expect(res.status).toBe(404);
      expect(await json(res)).toEqual({ detail: "Not found" });
    }
  });

  it("a body that is not JSON is 400 with a readable detail", async () => {
    const res = await api("/api/v1/dev/seed", { method: "POST", body: "{not json", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ detail: "Request body must be valid JSON" });
  });

  it("a body that breaks the schema is 422 with detail and errors[path, message]", async () => {
    const res = await api("/api/v1/dev/seed", { method: "POST", body: JSON.stringify({ photos: [] }) });
    expect(res.status).toBe(422);
    const body = await json<{ detail: string; errors: { path: string; message: string }[] }>(res);
    expect(body.errors[0]!.path).toBe("photos");
    expect(body.detail).toBe(body.errors[0]!.message);
  });

  it("an unexpected failure is a generic 500 with no stack trace, logged with the request id", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const brokenDb = {
      prepare() {
        throw new Error("SQLITE_CORRUPT: at secretFunction (worker.js:1:1)");
      },
    };
    const res = await createApp().fetch(
      new Request("http://localhost/api/v1/universities/", { headers: { "cf-ray": "ray-123" } }),
      { ...env, DB: brokenDb as unknown as D1Database },
    );
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ detail: "Server error. Please try again later." });
    expect(text).not.toContain("secretFunction");
    expect(res.headers.get("X-Request-Id")).toBe("ray-123");
    const line = JSON.parse(String(logged.mock.calls.at(-1)?.[0]));
    expect(line).toMatchObject({ level: "error", event: "unhandled_error", request_id: "ray-123" });
  });

  it("other methods on pages are 405", async () => {
    const res = await api("/support", { method: "POST" });
    expect(res.status).toBe(405);
    expect(await json(res)).toEqual({ detail: "Method not allowed" });
  });
});

/** Production requires Stripe's key and webhook secret, and the site's absolute https:// address. */
const STRIPE_KEYS = { STRIPE_SECRET_KEY: "sk_test_config", STRIPE_WEBHOOK_SECRET: "whsec_config_test", PUBLIC_BASE_URL: "https://campusnest.example" };

describe("configuration is checked at start", () => {
  it("a production worker without Stripe's key and webhook secret refuses to serve and names them", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    // Explicitly empty: the test must not depend on what a developer's .dev.vars holds.
    const res = await createApp().fetch(new Request("http://localhost/api/health"), { ...env, ENVIRONMENT: "production", PUBLIC_BASE_URL: "https://campusnest.example", STRIPE_SECRET_KEY: "", STRIPE_WEBHOOK_SECRET: "" });
    expect(res.status).toBe(500);
    expect((await json<{ detail: string }>(res)).detail).toContain("production requires STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET");
  });

  it("a production worker without JWT_SECRET refuses to serve and names the secret", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { JWT_SECRET: _omitted, ...rest } = env;
    const res = await createApp().fetch(new Request("http://localhost/api/health"), {
      ...rest,
      ENVIRONMENT: "production",
    } as unknown as Env);
    expect(res.status).toBe(500);
    expect((await json<{ detail: string }>(res)).detail).toContain("JWT_SECRET");
  });

  it("a production worker refuses the secrets published in .dev.vars.example", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const published = Object.fromEntries(
      devVarsExample
        .split("\n")
        .filter((line) => /^(JWT_SECRET|ADMIN_PASSWORD|STRIPE_WEBHOOK_SECRET)=/.test(line))
        .map((line) => line.split("=", 2) as [string, string]),
    );
    expect(Object.keys(published).sort()).toEqual(["ADMIN_PASSWORD", "JWT_SECRET", "STRIPE_WEBHOOK_SECRET"]);
    for (const name of ["JWT_SECRET", "ADMIN_PASSWORD", "STRIPE_WEBHOOK_SECRET"]) {
      const res = await createApp().fetch(new Request("http://localhost/api/health"), {
        ...env,
        ...STRIPE_KEYS,
        ENVIRONMENT: "production",
        [name]: published[name],
      });
      expect(res.status, name).toBe(500);
      expect((await json<{ detail: string }>(res)).detail).toContain(`${name} is the published development value`);
    }
    // The Connect endpoint's development secret (empty in the file, the built-in fallback) likewise.
    const connect = await createApp().fetch(new Request("http://localhost/api/health"), {
      ...env,
      ...STRIPE_KEYS,
      ENVIRONMENT: "production",
      STRIPE_CONNECT_WEBHOOK_SECRET: PUBLISHED_DEV_SECRETS.STRIPE_CONNECT_WEBHOOK_SECRET[0],
    });
    expect(connect.status).toBe(500);
    expect((await json<{ detail: string }>(connect)).detail).toContain("STRIPE_CONNECT_WEBHOOK_SECRET is the published development value");
    // Development uses them on purpose.
    const dev = await createApp().fetch(new Request("http://localhost/api/health"), { ...env, ENVIRONMENT: "development", ...published });
    expect(dev.status).toBe(200);
  });

  it("the platform and Connect webhook secrets must differ outside development (each Stripe endpoint its own)", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    for (const environment of ["production", "test"]) {
      const res = await createApp().fetch(new Request("http://localhost/api/health"), {
        ...env,
        ...STRIPE_KEYS,
        ENVIRONMENT: environment,
        PUBLIC_BASE_URL: "https://campusnest.test",
        STRIPE_CONNECT_WEBHOOK_SECRET: STRIPE_KEYS.STRIPE_WEBHOOK_SECRET,
      });
      expect(res.status, environment).toBe(500);
      expect((await json<{ detail: string }>(res)).detail).toContain("STRIPE_CONNECT_WEBHOOK_SECRET must differ from STRIPE_WEBHOOK_SECRET");
    }
    const distinct = await createApp().fetch(new Request("http://localhost/api/health"), { ...env, ...STRIPE_KEYS, ENVIRONMENT: "production", STRIPE_CONNECT_WEBHOOK_SECRET: "whsec_connect_distinct_0123456789" });
    expect(distinct.status).toBe(200);
  });

  it("a weak production admin password is refused by name", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await createApp().fetch(new Request("http://localhost/api/health"), {
      ...env,
      ...STRIPE_KEYS,
      ENVIRONMENT: "production",
      ADMIN_PASSWORD: "short",
    });
    expect(res.status).toBe(500);
    expect((await json<{ detail: string }>(res)).detail).toContain("ADMIN_PASSWORD");
  });

  it("a complete production configuration serves", async () => {
    const res = await createApp().fetch(new Request("http://localhost/api/health"), {
      ...env,
      ...STRIPE_KEYS,
      ENVIRONMENT: "production",
    });
    expect(res.status).toBe(200);
  });
});

describe("security headers", () => {
  const expected = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "strict-transport-security": "max-age=63072000; includeSubDomains",
  };

  it.each(["/api/health", "/api/nope", "/", "/listing/abc?back=%2F", "/version.txt"])(
    "are on %s",
    async (path) => {
      const res = await api(path);
      for (const [name, value] of Object.entries(expected)) expect(res.headers.get(name)).toBe(value);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toContain("unsafe-inline");
      expect(csp).not.toContain("unsafe-eval");
    },
  );
});

describe("the Vite dev server exception", () => {
  it("allows inline scripts and styles only when DEV_SERVER=vite (npm run dev)", async () => {
    const dev = await createApp().fetch(new Request("http://localhost/api/health"), { ...env, DEV_SERVER: "vite" } as Env);
    expect(dev.headers.get("content-security-policy")).toContain("'unsafe-inline'");
    const built = await createApp().fetch(new Request("http://localhost/api/health"), env);
    expect(built.headers.get("content-security-policy")).not.toContain("'unsafe-inline'");
  });
});

describe("static SPA", () => {
  it("serves index.html for deep links and the build version at /version.txt", async () => {
    const page = await api("/messages?userId=some-id");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).toContain('<div id="root">');

    const version = await api("/version.txt");
    const { version: apiVersion } = await json<{ version: string }>(await api("/api/version"));
    expect((await version.text()).trim()).toBe(apiVersion);
  });

  it("non-socket requests to a party path are 404", async () => {
    const res = await api("/parties/inbox/someone");
    expect(res.status).toBe(404);
  });
});

describe("CORS", () => {
  it("allows only configured origins", async () => {
    const allowed = await api("/api/health", { headers: { Origin: "https://app.campusnest.test" } });
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.campusnest.test");

    const other = await api("/api/health", { headers: { Origin: "https://evil.example" } });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();

    const preflight = await api("/api/v1/universities/", {
      method: "OPTIONS",
      headers: {
        Origin: "https://app.campusnest.test",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization,content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
  });
});

describe("logs", () => {
  it("log route patterns, never ids, query strings or tokens", async () => {
    const logged = vi.spyOn(console, "log").mockImplementation(() => {});
    await api("/api/v1/dev/emails?to=someone%40example.com", { headers: { Authorization: "Bearer secret-token" } });
    const lines = logged.mock.calls.map((c) => String(c[0])).join("\n");
    expect(lines).toContain('"route":"/api/v1/dev/emails"');
    expect(lines).not.toContain("someone");
    expect(lines).not.toContain("secret-token");
  });
});

describe("request bodies are limited before they are parsed", () => {
  it("answers 413 {detail} above 64 KB on JSON calls, declared or streamed", async () => {
    const big = JSON.stringify({ email: "a@b.test", password: "x".repeat(70 * 1024) });
    const declared = await post("/api/v1/auth/login", JSON.parse(big));
    expect(declared.status).toBe(413);
    expect((await json<{ detail: string }>(declared)).detail).toMatch(/too large/);
    const chunks = [new TextEncoder().encode(big.slice(0, 40_000)), new TextEncoder().encode(big.slice(40_000))];
    const streamed = await api("/api/v1/feedback/", {
      method: "POST",
      body: new ReadableStream({
        pull(controller) {
          const next = chunks.shift();
          if (next) controller.enqueue(next);
          else controller.close();
        },
      }),
      headers: { "content-type": "application/json" },
    });
    expect(streamed.status).toBe(413);
    // Just under the limit is read as usual (here: a 422 for the field's own limit).
    const fits = await post("/api/v1/feedback/", { email: "a@b.test", message: "m".repeat(60 * 1024) });
    expect(fits.status).toBe(422);
  });

  it("lets an upload route take what its contract allows, and no more", async () => {
    const s = await signUp("limits@ufl.edu");
    const avatar = (bytes: number) =>
      api("/api/v1/users/avatar-base64", authed(s.access_token, { method: "POST", body: JSON.stringify({ image_data: "A".repeat(bytes) }) }));
    // 10 MB decoded is 13.4 MB of base64: refused by the route's own check (413 with the product's text).
    expect(await json(await avatar(13_990_000))).toEqual({ detail: "File size must be less than 10MB" });
    const over = await avatar(14.1 * 1024 * 1024);
    expect(over.status).toBe(413);
    expect((await json<{ detail: string }>(over)).detail).toMatch(/too large/);
  });
});

describe("bad input never becomes a 500 or a leak", () => {
  it("two sign-ups of one email at once: one 201, one 409, and no personal data in any log line", async () => {
    const lines: string[] = [];
    for (const level of ["log", "warn", "error"] as const) vi.spyOn(console, level).mockImplementation((line: unknown) => void lines.push(String(line)));
    const body = { email: "race@ufl.edu", password: "secret-pass-1", first_name: "Racy", last_name: "Twin", phone: "555-0100" };
    const results = await Promise.all([post("/api/v1/auth/register", body), post("/api/v1/auth/register", body)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const loser = results.find((r) => r.status === 409)!;
    expect(await json(loser)).toEqual({ detail: "An account with this email already exists" });
    const all = lines.join("\n");
    for (const secret of ["race@ufl.edu", "Racy", "Twin", "555-0100", "scrypt$"]) expect(all).not.toContain(secret);
  });

  it("logs a database error by its name and code, never its SQL or values", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const failing = {
      prepare() {
        const error = new Error("D1_ERROR: UNIQUE constraint failed: users.email: SQLITE_CONSTRAINT");
        throw Object.assign(new Error("Failed query: insert into users values (?) params: leak@ufl.edu,Leaky", { cause: error }), { name: "DrizzleQueryError" });
      },
    };
    const res = await createApp().fetch(new Request("http://localhost/api/v1/universities/"), { ...env, DB: failing as unknown as D1Database });
    expect(res.status).toBe(409);
    const line = String(logged.mock.calls.at(-1)?.[0]);
    expect(JSON.parse(line)).toMatchObject({ event: "unhandled_error", error: "DrizzleQueryError", code: "SQLITE_CONSTRAINT" });
    expect(line).not.toContain("leak@ufl.edu");
    expect(line).not.toContain("insert into");
  });
});
