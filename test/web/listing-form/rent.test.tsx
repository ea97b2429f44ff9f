import { describe, expect, it } from "vitest";
import { listingFormSchema } from "@contract/forms";

const valid = {
  title: "Sunny 2x2",
  description: "Near campus",
  university_id: 1,
  unit_type: "2x2",
  address: "100 Main St",
  lease_term: "fall",
  parking: false,
  allow_pets: false,
  gender_preference: "no_preference",
  available_from: "",
  available_to: "",
};

const rentErrors = (monthly_rent: string) => {
  const result = listingFormSchema.safeParse({ ...valid, monthly_rent });
  return result.success ? [] : result.error.issues.filter((i) => i.path[0] === "monthly_rent").map((i) => i.message);
};

describe("the listing form's rent", () => {
  it("refuses cents, as the API does, instead of rounding them", () => {
    expect(rentErrors("850.75")).toEqual(["Monthly rent must be a whole number of dollars"]);
    expect(rentErrors("850.5")).toEqual(["Monthly rent must be a whole number of dollars"]);
  });

  it("takes whole dollars, and says what is wrong otherwise", () => {
    expect(rentErrors("850")).toEqual([]);
    expect(listingFormSchema.safeParse({ ...valid, monthly_rent: " 850 " }).data?.monthly_rent).toBe(850);
    expect(rentErrors("")).toEqual(["Monthly rent is required"]);
    expect(rentErrors("0")).toEqual(["Monthly rent must be at least 1"]);
  });
});
