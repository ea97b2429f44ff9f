import { describe, expect, it } from "vitest";
import { ApiError, apiRequest, buildUrl, NETWORK_ERROR_MESSAGE } from "../../web/lib/api-client";
import { authStore, REFRESH_TOKEN_KEY } from "../../web/lib/auth-store";
import { makeUser } from "./render";

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

  it("turns a failed connection into a readable network error", async () => {
    globalThis.fetch = (async () => {
      throw new TypeError("Failed to fetch");
    }) as typeof fetch;
    const err = (await apiRequest("universities/").catch((e: unknown) => e)) as ApiError;
    expect(err.isNetworkError).toBe(true);
    expect(err.message).toBe(NETWORK_ERROR_MESSAGE);
  });
});
