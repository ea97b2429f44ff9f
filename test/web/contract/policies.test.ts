/** The product's rules (worker/contract/policies.ts), which the worker and the SPA both call. */
import { describe, expect, it } from "vitest";
import { canCreateListing, canEditListing, canViewListing, isIdVerified, isPublicListing, looksIdVerified } from "@contract/policies";
import { canPromoteListing, canStaffPromoteListing, ownerListingState, canConfirmAvailability, isRentFarBelow } from "@contract/owner-rules";
import { messagingRefusalOnScreen } from "@contract/messaging-rules";
import { availabilityConfirmedText } from "@contract/constants";
import { MESSAGING_MESSAGES } from "@contract/messaging-rules";
import { listingPatchSchema } from "@contract/listings";
import { publicAddress } from "@contract/address";

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

  it("lets signed-in people message others on screen, never themselves", () => {
    expect(messagingRefusalOnScreen(student("unverified"), "owner")).toBeNull();
    expect(messagingRefusalOnScreen(student("verified"), "u1")).toMatchObject({ status: 400, detail: MESSAGING_MESSAGES.self });
    expect(messagingRefusalOnScreen(null, "owner")).toMatchObject({ status: 401 });
    // A listing the visitor may not see (pending) is refused in the API's words.
    expect(messagingRefusalOnScreen(student("verified"), "owner", listing({ verification_status: "pending" }))).toMatchObject({ status: 404 });
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

  it("names a listing the freshness check paused 'unconfirmed' (review and staff's hiding still come first); only live or paused ones can be confirmed", () => {
    expect(ownerListingState(listing({ status: "paused" }))).toBe("unconfirmed");
    expect(ownerListingState(listing({ status: "paused", moderation_status: "hidden" }))).toBe("hidden_by_staff");
    expect(ownerListingState(listing({ status: "paused", verification_status: "pending" }))).toBe("pending");
    expect(canConfirmAvailability(listing({ status: "paused" }))).toBe(true);
    expect(canConfirmAvailability(listing())).toBe(true);
    expect(canConfirmAvailability(listing({ status: "taken" }))).toBe(false);
    expect(canConfirmAvailability(listing({ status: "hidden" }))).toBe(false);
    // The paused status is the system's: the owner's PATCH never accepts it.
    expect(listingPatchSchema.safeParse({ status: "paused" }).success).toBe(false);
    expect(listingPatchSchema.safeParse({ status: "available" }).success).toBe(true);
  });

  it("price check: strictly below half the median of at least 5 comparables", () => {
    expect(isRentFarBelow(499, { count: 5, median: 1000 })).toBe(true);
    expect(isRentFarBelow(500, { count: 5, median: 1000 })).toBe(false);
    expect(isRentFarBelow(100, { count: 4, median: 1000 })).toBe(false);
    expect(isRentFarBelow(100, { count: 5, median: null })).toBe(false);
  });

  it("says how long ago availability was confirmed, in whole days", () => {
    const now = Date.parse("2026-03-10T12:00:00.000Z");
    expect(availabilityConfirmedText("2026-03-10T01:00:00.000Z", now)).toBe("Availability confirmed today");
    expect(availabilityConfirmedText("2026-03-09T11:00:00.000Z", now)).toBe("Availability confirmed 1 day ago");
    expect(availabilityConfirmedText("2026-02-28T12:00:00.000Z", now)).toBe("Availability confirmed 10 days ago");
    expect(availabilityConfirmedText(null, now)).toBeNull();
  });
});

/** The public form of a listing's address (contract/address.ts, docs/decisions/024): street and area only. */
describe("publicAddress", () => {
  const cases: [string, string][] = [
    // The contract's example, and the house number in its usual forms.
    ["177 Bleecker St, Apt 4B, New York, NY 10003", "Bleecker St, New York, NY 10003"],
    ["123A Main St, Gainesville, FL 32601", "Main St, Gainesville, FL 32601"],
    ["12-14 Elm Ave, Austin, TX 78705", "Elm Ave, Austin, TX 78705"],
    ["37-12 31st Ave, Queens, NY 11103", "31st Ave, Queens, NY 11103"],
    ["123 1/2 Oak St, Berkeley, CA 94704", "Oak St, Berkeley, CA 94704"],
    ["123½ Oak St, Berkeley, CA 94704", "Oak St, Berkeley, CA 94704"],
    ["1/2 Oak St, Berkeley, CA", "Oak St, Berkeley, CA"],
    ["123 A St, Davis, CA", "A St, Davis, CA"],
    ["450 5th Ave, New York, NY", "5th Ave, New York, NY"],
    ["123, Main St, Athens, GA", "Main St, Athens, GA"],
    // Units in every designator, in their own part or inside the street's.
    ["123 Main St Apt 4B, Gainesville, FL 32601", "Main St, Gainesville, FL 32601"],
    ["123 Main St. Apt. #4B, Gainesville, FL", "Main St., Gainesville, FL"],
    ["123 Main St #5, Gainesville, FL", "Main St, Gainesville, FL"],
    ["123 Main St, # 12B, Gainesville, FL", "Main St, Gainesville, FL"],
    ["123 Main St, Unit 3, Ann Arbor, MI", "Main St, Ann Arbor, MI"],
    ["123 Main St, Unit B, Ann Arbor, MI", "Main St, Ann Arbor, MI"],
    ["123 Main St Apt4B, Ann Arbor, MI", "Main St, Ann Arbor, MI"],
    ["500 College Ave Suite 200, Ithaca, NY", "College Ave, Ithaca, NY"],
    ["500 College Ave, Ste 12-C, Ithaca, NY", "College Ave, Ithaca, NY"],
    ["500 College Ave, Fl 2, Ithaca, NY", "College Ave, Ithaca, NY"],
    ["500 College Ave, 3rd Floor, Ithaca, NY", "College Ave, Ithaca, NY"],
    ["500 College Ave Rm 101, Ithaca, NY", "College Ave, Ithaca, NY"],
    ["500 College Ave, Bldg 2, Apartment 14, Ithaca, NY", "College Ave, Ithaca, NY"],
    ["500 College Ave, Rear, Ithaca, NY", "College Ave, Ithaca, NY"],
    ["Apt 4, 12 Main St, Boston, MA", "Main St, Boston, MA"],
    ["4B, 12 Main St, Boston, MA", "Main St, Boston, MA"],
    // OpenStreetMap's (Nominatim's) order: a name, the house number as its own part, the road, ..., the ZIP code.
    ["Gator Hall, 157, Gale Lemerand Drive, Gainesville, Alachua County, Florida, 32611, United States", "Gator Hall, Gale Lemerand Drive, Gainesville, Alachua County, Florida, 32611, United States"],
    ["1200, Southwest 13th Street, Gainesville, Florida, 32601-1234, United States", "Southwest 13th Street, Gainesville, Florida, 32601-1234, United States"],
    ["123 Main St, 4B, Gainesville, FL 32601", "Main St, Gainesville, FL 32601"],
    // PO boxes.
    ["PO Box 123, Gainesville, FL 32601", "Gainesville, FL 32601"],
    ["P.O. Box 77, Gainesville, FL", "Gainesville, FL"],
    ["Post Office Box 9 Gainesville FL", "Gainesville FL"],
    // The development geocoder's made-up addresses keep their marker.
    ["42 Oak Lane, Apt 2, near University of Florida (development address)", "Oak Lane, near University of Florida (development address)"],
    ["42 Oak Lane, Gainesville, FL (development address)", "Oak Lane, Gainesville, FL (development address)"],
    // What must stay: no number, streets named by numbers, a state and ZIP that look like a floor,
    // words that begin like a designator.
    ["Bleecker St, New York, NY 10003", "Bleecker St, New York, NY 10003"],
    ["42nd St, New York, NY", "42nd St, New York, NY"],
    ["University Ave, Gainesville, FL 32601", "University Ave, Gainesville, FL 32601"],
    ["Unity Rd, Gainesville, FL", "Unity Rd, Gainesville, FL"],
    ["Box Elder St, Logan, UT", "Box Elder St, Logan, UT"],
    ["One Campus Drive, Hanover, NH", "One Campus Drive, Hanover, NH"],
    ["  12   Main   St ,  Boston  ", "Main St, Boston"],
  ];
  it.each(cases)("%s -> %s", (address, expected) => {
    expect(publicAddress(address)).toBe(expected);
    // Idempotent: what is stored and shown publicly has nothing further to remove.
    expect(publicAddress(expected)).toBe(expected);
  });

  it("leaves nothing of an address that was only a number or a box", () => {
    expect(publicAddress("123")).toBe("");
    expect(publicAddress("PO Box 12")).toBe("");
    expect(publicAddress("")).toBe("");
  });

  it("never keeps the house number or unit of a long address", () => {
    const out = publicAddress("1600 Pennsylvania Ave NW, Suite 300, Washington, DC 20500");
    expect(out).toBe("Pennsylvania Ave NW, Washington, DC 20500");
    expect(out).not.toMatch(/1600|300/);
  });
});
