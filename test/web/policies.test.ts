/** The product's rules (worker/contract/policies.ts), which the worker and the SPA both call. */
import { describe, expect, it } from "vitest";
import {
  canCreateListing,
  canEditListing,
  canMessage,
  canPromoteListing,
  canStaffPromoteListing,
  canViewListing,
  isIdVerified,
  isPublicListing,
  looksIdVerified,
  ownerListingState,
} from "@contract/policies";

const student = (status: string) => ({ id: "u1", id_verification_status: status });
const listing = (over: Partial<{ user_id: string; verification_status: string; status: string; moderation_status: string }> = {}) => ({
  user_id: "owner",
  verification_status: "approved",
  status: "available",
  moderation_status: "visible",
  ...over,
});

describe("policies", () => {
  it("counts only exactly 'verified' as identity-verified; the user's own pages also word 'approved' so", () => {
    expect(["unverified", "pending", "approved", "verified", "rejected"].filter((s) => isIdVerified(student(s)))).toEqual(["verified"]);
    expect(isIdVerified(null)).toBe(false);
    expect(["unverified", "pending", "approved", "verified", "rejected"].filter(looksIdVerified)).toEqual(["approved", "verified"]);
  });

  it("lets only identity-verified users create listings", () => {
    expect(canCreateListing(student("verified"))).toBe(true);
    expect(canCreateListing(student("approved"))).toBe(false);
    expect(canCreateListing(student("pending"))).toBe(false);
    expect(canCreateListing(null)).toBe(false);
  });

  it("makes a listing public only when approved, available and not hidden by staff", () => {
    expect(isPublicListing(listing())).toBe(true);
    expect(isPublicListing(listing({ verification_status: "pending" }))).toBe(false);
    expect(isPublicListing(listing({ status: "taken" }))).toBe(false);
    expect(isPublicListing(listing({ moderation_status: "hidden" }))).toBe(false);
  });

  it("shows a listing that is not public to its owner only, and lets only the owner edit it", () => {
    const pending = listing({ verification_status: "pending" });
    expect(canViewListing({ id: "owner" }, pending)).toBe(true);
    expect(canViewListing({ id: "someone" }, pending)).toBe(false);
    expect(canViewListing(null, pending)).toBe(false);
    expect(canViewListing(null, listing())).toBe(true);
    expect(canEditListing({ id: "owner" }, listing())).toBe(true);
    expect(canEditListing({ id: "someone" }, listing())).toBe(false);
    expect(canEditListing(null, listing())).toBe(false);
  });

  it("lets owners promote their approved, visible listings; staff any approved one", () => {
    const owner = { id: "owner", id_verification_status: "verified" };
    expect(canPromoteListing(owner, listing())).toBe(true);
    expect(canPromoteListing(owner, listing({ verification_status: "pending" }))).toBe(false);
    expect(canPromoteListing(owner, listing({ moderation_status: "hidden" }))).toBe(false);
    expect(canPromoteListing(student("verified"), listing())).toBe(false);
    expect(canStaffPromoteListing(listing())).toBe(true);
    expect(canStaffPromoteListing(listing({ verification_status: "rejected" }))).toBe(false);
  });

  it("lets signed-in people message others, never themselves", () => {
    expect(canMessage(student("unverified"), "owner")).toBe(true);
    expect(canMessage(student("verified"), "u1")).toBe(false);
    expect(canMessage(null, "owner")).toBe(false);
  });

  it("gives an owner's listing exactly one state: review first, then staff's hiding, then the owner's status", () => {
    expect(ownerListingState(listing({ verification_status: "pending" }))).toBe("pending");
    // A pending listing the owner marked taken is still only pending review.
    expect(ownerListingState(listing({ verification_status: "pending", status: "taken" }))).toBe("pending");
    expect(ownerListingState(listing({ verification_status: "rejected", status: "taken" }))).toBe("rejected");
    expect(ownerListingState(listing({ moderation_status: "hidden" }))).toBe("hidden_by_staff");
    expect(ownerListingState(listing({ status: "taken" }))).toBe("taken");
    expect(ownerListingState(listing({ status: "hidden" }))).toBe("paused");
    expect(ownerListingState(listing())).toBe("live");
  });
});
