import { describe, expect, it, vi } from "vitest";
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

describe("signing out", () => {
  it("tells the service worker to forget the pages it kept", () => {
    stored();
    const postMessage = vi.fn();
    Object.defineProperty(navigator, "serviceWorker", { configurable: true, value: { controller: { postMessage } } });
    const calls = fakeApi({ "POST /api/v1/auth/logout": new Response(null, { status: 204 }) });
    try {
      authStore.signOut();
    } finally {
      Reflect.deleteProperty(navigator, "serviceWorker");
    }
    expect(postMessage).toHaveBeenCalledWith({ type: "clear-pages" });
    expect(callsOf(calls, "POST /api/v1/auth/logout")).toHaveLength(1);
  });
});

describe("another tab of the browser", () => {
  /** What the browser does in this tab when another one writes localStorage: the write, then a `storage` event here. */
  function otherTab(key: string, value: string | null) {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
    window.dispatchEvent(new StorageEvent("storage", { key, newValue: value }));
  }

  it("signing out there signs this tab out at once, without a second logout call", () => {
    stored();
    const seen: (string | null)[] = [];
    const unsubscribe = authStore.subscribe(() => seen.push(authStore.get()?.token ?? null));
    // The other tab's signOut removes the token, the user and the refresh token.
    otherTab("auth_token", null);
    otherTab("user_data", null);
    otherTab("refresh_token", null);
    unsubscribe();
    expect(authStore.get()).toBeNull();
    expect(seen[0]).toBeNull();
    // The API client has no token left to send: nothing goes out as the student from here.
    expect(authStore.expiresAt()).toBeNull();
  });

  it("a refresh there hands this tab the new token; another account signing in there replaces this one", () => {
    stored();
    otherTab("auth_token", "tok-2");
    expect(authStore.get()).toMatchObject({ token: "tok-2", user: { first_name: "Cached" } });
    // Someone else: the token, then the user.
    otherTab("auth_token", "tok-b");
    otherTab("user_data", JSON.stringify(makeUser({ id: "u-b", first_name: "Bea" })));
    expect(authStore.get()).toMatchObject({ token: "tok-b", user: { id: "u-b", first_name: "Bea" } });
    // A key of no concern changes nothing; a whole cleared storage signs out.
    otherTab("darkMode", "true");
    expect(authStore.get()?.token).toBe("tok-b");
    localStorage.clear();
    window.dispatchEvent(new StorageEvent("storage", { key: null }));
    expect(authStore.get()).toBeNull();
  });
});
