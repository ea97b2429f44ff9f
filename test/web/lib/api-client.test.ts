import { describe, expect, it, vi } from "vitest";
import { ApiError, apiRequest, buildUrl, NETWORK_ERROR_MESSAGE } from "../../../web/lib/api-client";
import { authStore, expiryOf, REFRESH_TOKEN_KEY, TOKEN_EXPIRY_KEY } from "../../../web/lib/auth-store";
import { makeUser } from "../render";

describe("api client", () => {
  it("builds /api/v1 URLs and drops empty query values", () => {
    expect(buildUrl("universities/")).toBe("/api/v1/universities/");
    expect(buildUrl("subleases/", { limit: 40, q: "", term: undefined, parking: true })).toBe(
      "/api/v1/subleases/?limit=40&parking=true",
    );
  });

  it("reads `detail` from errors and sends the bearer token", async () => {
    authStore.signIn({ access_token: "tok", user: makeUser() });
    let seenAuth: string | null = null;
    globalThis.fetch = (async (_url: string, init: RequestInit) => {
      seenAuth = new Headers(init.headers).get("Authorization");
      return new Response(JSON.stringify({ detail: "Listing not found" }), { status: 404 });
    }) as typeof fetch;
    const err = await apiRequest("subleases/x").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(404);
    expect((err as ApiError).message).toBe("Listing not found");
    expect(seenAuth).toBe("Bearer tok");
  });

  it("on a 401 refreshes once (rotating the stored refresh token) and retries with the new token", async () => {
    authStore.signIn({ access_token: "old", refresh_token: "r1", user: makeUser() });
    const seen: string[] = [];
    globalThis.fetch = (async (url: string, init: RequestInit) => {
      if (url.endsWith("/auth/refresh-token")) {
        expect(JSON.parse(String(init.body))).toEqual({ refresh_token: "r1" });
        return Response.json({ access_token: "new", refresh_token: "r2", user: makeUser({ first_name: "Renewed" }) });
      }
      const auth = new Headers(init.headers).get("Authorization")!;
      seen.push(auth);
      return auth === "Bearer new" ? Response.json({ ok: true }) : Response.json({ detail: "expired" }, { status: 401 });
    }) as typeof fetch;
    expect(await apiRequest("users/profile")).toEqual({ ok: true });
    expect(seen).toEqual(["Bearer old", "Bearer new"]);
    expect(localStorage.getItem(REFRESH_TOKEN_KEY)).toBe("r2");
    expect(authStore.get()?.user.first_name).toBe("Renewed");
  });

  it("signs out when the refresh is refused, and two 401s share one refresh", async () => {
    authStore.signIn({ access_token: "old", refresh_token: "r1", user: makeUser() });
    let refreshes = 0;
    globalThis.fetch = (async (url: string) => {
      if (url.endsWith("/auth/refresh-token")) {
        refreshes++;
        return Response.json({ detail: "Session expired" }, { status: 401 });
      }
      if (url.endsWith("/auth/logout")) return new Response(null, { status: 204 });
      return Response.json({ detail: "expired" }, { status: 401 });
    }) as typeof fetch;
    const results = await Promise.allSettled([apiRequest("users/profile"), apiRequest("users/stats")]);
    expect(results.map((r) => (r.status === "rejected" ? (r.reason as ApiError).status : 0))).toEqual([401, 401]);
    expect(refreshes).toBe(1);
    expect(authStore.get()).toBeNull();
    expect(localStorage.getItem("auth_token")).toBeNull();
  });

  // Refreshed ahead of expiry: a JWT-shaped access token (only exp and iat are read; the signature is the server's).
  const jwt = (name: string, iat: number, exp: number) => {
    const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
    return `${b64({ alg: "HS256" })}.${b64({ sub: name, iat, exp })}.sig`;
  };

  it("refreshes ahead of expiry, once for parallel calls, so no 401 reaches the caller", async () => {
    const nowS = Math.floor(Date.now() / 1000);
    // Issued 14 min 30 s ago, for 15 min: 30 s left, inside the refresh-ahead window.
    const old = jwt("old", nowS - 870, nowS + 30);
    const renewed = jwt("new", nowS, nowS + 900);
    authStore.signIn({ access_token: old, refresh_token: "r1", user: makeUser() });
    localStorage.setItem(TOKEN_EXPIRY_KEY, String(Date.now() + 30_000));
    authStore.reload();
    let refreshes = 0;
    const seen: string[] = [];
    // The refresh answers only once every call has been made: all five meet it in flight.
    let answerRefresh!: () => void;
    const refreshAnswered = new Promise<void>((resolve) => (answerRefresh = resolve));
    globalThis.fetch = (async (url: string, init: RequestInit) => {
      if (url.endsWith("/auth/refresh-token")) {
        refreshes++;
        await refreshAnswered;
        return Response.json({ access_token: renewed, refresh_token: "r2", user: makeUser() });
      }
      const auth = new Headers(init.headers).get("Authorization")!;
      seen.push(auth);
      return auth === `Bearer ${renewed}` ? Response.json({ ok: true }) : Response.json({ detail: "expired" }, { status: 401 });
    }) as typeof fetch;
    const calls = Promise.all(["users/profile", "users/stats", "messages/unread-count", "favorites/", "saved-searches/"].map((p) => apiRequest(p)));
    await vi.waitFor(() => expect(refreshes).toBe(1));
    answerRefresh();
    const results = await calls;
    expect(results).toEqual(Array(5).fill({ ok: true }));
    expect(refreshes).toBe(1);
    // Every call went out once, with the new token: none was refused.
    expect(seen).toEqual(Array(5).fill(`Bearer ${renewed}`));
    expect(authStore.expiresAt()).toBeGreaterThan(Date.now() + 14 * 60_000);
  });

  it("sends a token far from expiry as is, without a refresh", async () => {
    const nowS = Math.floor(Date.now() / 1000);
    const fresh = jwt("fresh", nowS, nowS + 900);
    authStore.signIn({ access_token: fresh, refresh_token: "r1", user: makeUser() });
    let refreshes = 0;
    const seen: string[] = [];
    globalThis.fetch = (async (url: string, init: RequestInit) => {
      if (url.endsWith("/auth/refresh-token")) refreshes++;
      seen.push(new Headers(init.headers).get("Authorization")!);
      return Response.json({ ok: true });
    }) as typeof fetch;
    await apiRequest("users/profile");
    expect(refreshes).toBe(0);
    expect(seen).toEqual([`Bearer ${fresh}`]);
  });

  it("reads a token's lifetime from exp - iat, whatever this device's clock says", () => {
    const token = jwt("x", 1_000, 1_900);
    expect(expiryOf(token, 5_000_000)).toBe(5_000_000 + 900_000);
    expect(expiryOf("not-a-jwt")).toBeNull();
  });

  it("turns a failed connection into a readable network error", async () => {
    globalThis.fetch = (async () => {
      throw new TypeError("Failed to fetch");
    }) as typeof fetch;
    const err = (await apiRequest("universities/").catch((e: unknown) => e)) as ApiError;
    expect(err.isNetworkError).toBe(true);
    expect(err.message).toBe(NETWORK_ERROR_MESSAGE);
  });
});
