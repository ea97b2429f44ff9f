import { describe, expect, it } from "vitest";
import { authStore } from "../../../web/lib/auth-store";
import { restoreSession } from "../../../web/lib/session";
import { callsOf, fakeApi, makeUser, notFound } from "../render";

function stored() {
  authStore.signIn({ access_token: "tok", refresh_token: "r1", user: makeUser({ first_name: "Cached" }) });
}

describe("restoring a session at startup", () => {
  it("fetches the profile and refreshes the cached user", async () => {
    stored();
    fakeApi({ "GET /api/v1/users/profile": { data: makeUser({ first_name: "Fresh" }) } });
    await restoreSession(0);
    expect(authStore.get()?.user.first_name).toBe("Fresh");
    expect(JSON.parse(localStorage.getItem("user_data")!).first_name).toBe("Fresh");
  });

  it("clears the stored session on a non-OK answer", async () => {
    stored();
    // Clearing it also ends the session on the server (answered 404 here, like the profile).
    const calls = fakeApi({ "GET /api/v1/users/profile": notFound, "POST /api/v1/auth/logout": notFound });
    await restoreSession(0);
    expect(authStore.get()).toBeNull();
    expect(callsOf(calls, "POST /api/v1/auth/logout")).toHaveLength(1);
    expect(localStorage.getItem("auth_token")).toBeNull();
  });

  it("keeps the cached user on a network error and tries again after the delay", async () => {
    stored();
    let calls = 0;
    fakeApi({
      "GET /api/v1/users/profile": () => {
        calls++;
        if (calls === 1) throw new TypeError("Failed to fetch");
        return { data: makeUser({ first_name: "Later" }) };
      },
    });
    const started = Date.now();
    await restoreSession(50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(calls).toBe(2);
    expect(authStore.get()?.user.first_name).toBe("Later");
  });

  it("keeps the cached user when the network stays down", async () => {
    stored();
    fakeApi({
      "GET /api/v1/users/profile": () => {
        throw new TypeError("Failed to fetch");
      },
    });
    await restoreSession(0);
    expect(authStore.get()?.user.first_name).toBe("Cached");
  });
});
