import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AppProviders, createQueryClient } from "../../../web/app/providers";
import { authStore } from "../../../web/lib/auth-store";
import { fakeApi, makeUser } from "../render";

describe("a session's cached answers end with it", () => {
  it("signing out drops the student's own answers and keeps the universities", async () => {
    fakeApi({ "GET /api/v1/users/profile": { data: makeUser({ id: "u-a" }) } });
    authStore.signIn({ access_token: "tok-a", user: makeUser({ id: "u-a" }) });
    const queryClient = createQueryClient();
    render(<AppProviders queryClient={queryClient}>page</AppProviders>);
    queryClient.setQueryData(["saved-searches"], [{ id: "s1", name: "UF summer" }]);
    queryClient.setQueryData(["favorites", "ids"], ["l1"]);
    queryClient.setQueryData(["universities"], [{ id: 49 }]);

    authStore.setUser(makeUser({ id: "u-a", first_name: "Renamed" }));
    expect(queryClient.getQueryData(["saved-searches"])).toHaveLength(1);

    authStore.signOut();
    expect(queryClient.getQueryData(["saved-searches"])).toBeUndefined();
    expect(queryClient.getQueryData(["favorites", "ids"])).toBeUndefined();
    expect(queryClient.getQueryData(["universities"])).toEqual([{ id: 49 }]);
  });

  it("another account signing in on the same tab does not see the first one's answers", () => {
    fakeApi({ "GET /api/v1/users/profile": { data: makeUser({ id: "u-a" }) } });
    authStore.signIn({ access_token: "tok-a", user: makeUser({ id: "u-a" }) });
    const queryClient = createQueryClient();
    render(<AppProviders queryClient={queryClient}>page</AppProviders>);
    queryClient.setQueryData(["saved-searches"], [{ id: "s1" }]);
    authStore.signIn({ access_token: "tok-b", user: makeUser({ id: "u-b" }) });
    expect(queryClient.getQueryData(["saved-searches"])).toBeUndefined();
  });
});
