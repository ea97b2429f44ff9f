import { describe, expect, it } from "vitest";
import { ApiError, apiRequest, buildUrl, NETWORK_ERROR_MESSAGE, setAuthHandlers } from "../../web/lib/api-client";

describe("api client", () => {
  it("builds /api/v1 URLs and drops empty query values", () => {
    expect(buildUrl("universities/")).toBe("/api/v1/universities/");
    expect(buildUrl("subleases/", { limit: 40, q: "", term: undefined, parking: true })).toBe(
      "/api/v1/subleases/?limit=40&parking=true",
    );
  });

  it("reads `detail` from errors and sends the bearer token", async () => {
    setAuthHandlers({ getToken: () => "tok", refresh: async () => null });
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

  it("on a 401 refreshes once and retries with the new token", async () => {
    let token = "old";
    setAuthHandlers({
      getToken: () => token,
      refresh: async () => {
        token = "new";
        return token;
      },
    });
    const seen: string[] = [];
    globalThis.fetch = (async (_url: string, init: RequestInit) => {
      const auth = new Headers(init.headers).get("Authorization")!;
      seen.push(auth);
      return auth === "Bearer new"
        ? new Response(JSON.stringify({ ok: true }), { status: 200 })
        : new Response(JSON.stringify({ detail: "expired" }), { status: 401 });
    }) as typeof fetch;
    expect(await apiRequest("users/profile")).toEqual({ ok: true });
    expect(seen).toEqual(["Bearer old", "Bearer new"]);
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
