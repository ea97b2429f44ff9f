import { describe, expect, it } from "vitest";
import { authStore } from "../../../web/lib/auth-store";
import { restoreSession } from "../../../web/lib/session";
import { makeUser } from "../render";

function stored() {
  authStore.signIn({ access_token: "tok", refresh_token: "r1", user: makeUser({ first_name: "Cached" }) });
}

describe("restoring a session at startup", () => {
  it("fetches the profile and refreshes the cached user", async () => {
    stored();
    globalThis.fetch = (async () => Response.json({ data: makeUser({ first_name: "Fresh" }) })) as typeof fetch;
    await restoreSession(0);
    expect(authStore.get()?.user.first_name).toBe("Fresh");
    expect(JSON.parse(localStorage.getItem("user_data")!).first_name).toBe("Fresh");
  });

  it("clears the stored session on a non-OK answer", async () => {
    stored();
    globalThis.fetch = (async () => Response.json({ detail: "gone" }, { status: 404 })) as typeof fetch;
    await restoreSession(0);
    expect(authStore.get()).toBeNull();
    expect(localStorage.getItem("auth_token")).toBeNull();
  });

  it("keeps the cached user on a network error and tries again after the delay", async () => {
    stored();
    let calls = 0;
    globalThis.fetch = (async () => {
      calls++;
      if (calls === 1) throw new TypeError("Failed to fetch");
      return Response.json({ data: makeUser({ first_name: "Later" }) });
    }) as typeof fetch;
    const started = Date.now();
    await restoreSession(50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(calls).toBe(2);
    expect(authStore.get()?.user.first_name).toBe("Later");
  });

  it("keeps the cached user when the network stays down", async () => {
    stored();
    globalThis.fetch = (async () => {
      throw new TypeError("Failed to fetch");
    }) as typeof fetch;
    await restoreSession(0);
    expect(authStore.get()?.user.first_name).toBe("Cached");
  });
});
