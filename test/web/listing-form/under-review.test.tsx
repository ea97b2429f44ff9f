import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeApi, makeUser, renderApp } from "../render";

describe("New Listing while the ID check is under review", () => {
  it("says it is under review, not that the student must get verified", async () => {
    const user = makeUser({ id_verification_status: "pending" });
    fakeApi({ "GET /api/v1/users/profile": { data: user }, "GET /api/v1/universities/": { data: [] } });
    renderApp("/create", { token: "t", user });
    expect(await screen.findByRole("heading", { name: "Your ID check is under review" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "See its status" })).toBeInTheDocument();
    expect(screen.queryByText("You must be verified to create a listing")).toBeNull();
  });

  it("a student who never sent a document is asked to get verified", async () => {
    const user = makeUser({ id_verification_status: "unverified" });
    fakeApi({ "GET /api/v1/users/profile": { data: user }, "GET /api/v1/universities/": { data: [] } });
    renderApp("/create", { token: "t", user });
    expect(await screen.findByRole("heading", { name: "You must be verified to create a listing" })).toBeInTheDocument();
  });
});
