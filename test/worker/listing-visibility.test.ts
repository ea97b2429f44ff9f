/** A public listing never carries review notes, payment ids or the place's coordinates; the owner's own listing does. */
import { beforeAll, describe, expect, it } from "vitest";
import { api, authed, json, signUp, type Session } from "./helpers";
import { insertListing } from "./fixtures";

const OWNER_ONLY = ["rejection_reason", "stripe_subscription_id", "latitude", "longitude"];

let owner: Session;
let visitor: Session;

beforeAll(async () => {
  owner = await signUp("visibility-owner@ufl.edu");
  visitor = await signUp("visibility-visitor@ufl.edu");
  await insertListing(owner.user.id, "v01", {
    stripe_subscription_id: "sub_visible_1",
    rejection_reason: "An old note",
    latitude: 29.651234,
    longitude: -82.325678,
    distance_miles: 1.4,
  });
});

describe("public and owner listings", () => {
  it("browse, a non-owner's detail and favourites carry neither owner-only field", async () => {
    const page = await json<{ data: Record<string, unknown>[] }>(await api("/api/v1/subleases"));
    const listed = page.data.find((l) => l.id === "v01");
    expect(listed).toBeDefined();

    const anonymous = await json<{ data: Record<string, unknown> }>(await api("/api/v1/subleases/v01"));
    const other = await json<{ data: Record<string, unknown> }>(await api("/api/v1/subleases/v01", authed(visitor.access_token)));

    const add = await api("/api/v1/favorites", authed(visitor.access_token, { method: "POST", body: JSON.stringify({ listing_id: "v01" }) }));
    expect(add.status).toBe(201);
    const added = await json(add);
    const favorites = await json<{ favorites: Record<string, unknown>[] }>(await api("/api/v1/favorites", authed(visitor.access_token)));
    expect(favorites.favorites.map((f) => f.listing_id)).toContain("v01");

    for (const body of [listed!, anonymous.data, other.data, ...favorites.favorites, added]) {
      for (const field of OWNER_ONLY) expect(body).not.toHaveProperty(field);
    }
    expect(JSON.stringify([page, anonymous, other, favorites])).not.toContain("sub_visible_1");
    // The distance is public; the coordinates it came from are not (issue 15).
    expect(anonymous.data.distance_miles).toBe(1.4);
    expect(JSON.stringify([page, anonymous, other, favorites, added])).not.toContain("82.325678");
  });

  it("the owner's detail and own listings carry both", async () => {
    const mine = await json<{ data: Record<string, unknown> }>(await api("/api/v1/subleases/v01", authed(owner.access_token)));
    expect(mine.data).toMatchObject({ stripe_subscription_id: "sub_visible_1", rejection_reason: "An old note", latitude: 29.651234, longitude: -82.325678 });
    const own = await json<{ data: Record<string, unknown>[] }>(await api("/api/v1/users/listings", authed(owner.access_token)));
    expect(own.data.find((l) => l.id === "v01")).toMatchObject({ stripe_subscription_id: "sub_visible_1" });
  });
});
