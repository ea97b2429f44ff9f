import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { UNIT_TYPES } from "../../../worker/contract/constants";
import type { CreateListingResponse, OwnerListingResponse } from "../../../worker/contract/listings";
import { allowsGenderPreference, fairGenderPreference, SHARED_UNIT_TYPES } from "../../../worker/contract/policies";
import { api, authed, dataUrl, insertListing, JPEG_1x1, json, type Session, signUp } from "../helpers";

/** Fair preferences (docs/decisions/018): a gender preference only where the renter shares a living space. */

let lister: Session;

beforeAll(async () => {
  lister = await signUp("lister@ufl.edu");
  await env.DB.prepare("UPDATE users SET id_verification_status = 'verified' WHERE id = ?").bind(lister.user.id).run();
});

async function photo(): Promise<string> {
  const res = await api(
    "/api/v1/upload/multiple-base64",
    authed(lister.access_token, { method: "POST", body: JSON.stringify({ images: [{ filename: "room.jpg", content_type: "image/jpeg", image_data: dataUrl(JPEG_1x1) }] }) }),
  );
  expect(res.status).toBe(200);
  return (await json<{ uploaded_files: { url: string }[] }>(res)).uploaded_files[0]!.url;
}

async function create(unitType: string, genderPreference: string) {
  const body = {
    title: `A ${unitType} near campus`,
    description: "A bright place",
    unit_type: unitType,
    monthly_rent: 850,
    address: "12 Oak St, Gainesville, FL",
    lease_term: "spring",
    university_id: 3,
    gender_preference: genderPreference,
    pictures: [await photo()],
  };
  const res = await api("/api/v1/subleases/", authed(lister.access_token, { method: "POST", body: JSON.stringify(body) }));
  expect(res.status).toBe(201);
  return json<CreateListingResponse>(res);
}

const patch = async (id: string, body: unknown) => {
  const res = await api(`/api/v1/subleases/${id}`, authed(lister.access_token, { method: "PATCH", body: JSON.stringify(body) }));
  expect(res.status).toBe(200);
  return (await json<OwnerListingResponse>(res)).data;
};

const stored = async (id: string) => (await env.DB.prepare("SELECT gender_preference FROM listings WHERE id = ?").bind(id).first<{ gender_preference: string }>())!.gender_preference;

describe("the rule", () => {
  it("classifies every unit type: shared units allow a preference, a studio, 1x1 or 1x2 does not", () => {
    const whole = UNIT_TYPES.filter((t) => !allowsGenderPreference(t));
    expect(whole).toEqual(["studio", "1x1", "1x2"]);
    expect(UNIT_TYPES.filter(allowsGenderPreference)).toEqual([...SHARED_UNIT_TYPES]);
    expect(allowsGenderPreference("other")).toBe(true);
    expect(allowsGenderPreference("")).toBe(false);
    expect(allowsGenderPreference("5x5")).toBe(false);
    expect(fairGenderPreference("studio", "female_preferred")).toBe("no_preference");
    expect(fairGenderPreference("2x2", "male_preferred")).toBe("male_preferred");
  });
});

describe("create", () => {
  it("stores no_preference for a studio, whatever was sent", async () => {
    const { id, data } = await create("studio", "female_preferred");
    expect(data.gender_preference).toBe("no_preference");
    expect(await stored(id)).toBe("no_preference");
  });

  it("keeps the preference of a shared unit", async () => {
    const { id, data } = await create("2x2", "female_preferred");
    expect(data.gender_preference).toBe("female_preferred");
    expect(await stored(id)).toBe("female_preferred");
  });
});

describe("edit", () => {
  it("a 2x2 with a preference edited into a studio drops it (no 422; a new unit type goes back to review)", async () => {
    await insertListing(lister.user.id, "fp01", { unit_type: "2x2", gender_preference: "male_preferred" });
    const data = await patch("fp01", { unit_type: "studio", gender_preference: "male_preferred" });
    expect(data).toMatchObject({ unit_type: "studio", gender_preference: "no_preference", verification_status: "pending" });
    await insertListing(lister.user.id, "fp02", { unit_type: "3x2", gender_preference: "female_preferred" });
    expect(await patch("fp02", { unit_type: "1x1" })).toMatchObject({ unit_type: "1x1", gender_preference: "no_preference" });
  });

  it("a preference sent alone for a studio is stored as no_preference", async () => {
    await insertListing(lister.user.id, "fp03", { unit_type: "studio" });
    expect(await patch("fp03", { gender_preference: "female_preferred" })).toMatchObject({ gender_preference: "no_preference", verification_status: "approved" });
  });

  it("a shared unit's preference is edited as before", async () => {
    await insertListing(lister.user.id, "fp04", { unit_type: "studio" });
    expect(await patch("fp04", { unit_type: "other", gender_preference: "female_preferred" })).toMatchObject({ unit_type: "other", gender_preference: "female_preferred" });
    expect(await patch("fp04", { status: "taken" })).toMatchObject({ status: "taken", gender_preference: "female_preferred" });
    expect(await patch("fp04", { gender_preference: "no_preference" })).toMatchObject({ gender_preference: "no_preference" });
  });
});

describe("migration 0009", () => {
  it("clears the preference of every listing whose unit type allows none, as the rule says", async () => {
    for (const [i, unitType] of UNIT_TYPES.entries()) {
      await insertListing(lister.user.id, `mig${i + 10}`, { unit_type: unitType, gender_preference: "female_preferred" });
    }
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0009_"))!;
    for (const query of migration.queries) await env.DB.prepare(query).run();
    const { results } = await env.DB.prepare("SELECT unit_type, gender_preference FROM listings WHERE id LIKE 'mig%' ORDER BY id").all<{ unit_type: string; gender_preference: string }>();
    expect(results).toEqual(UNIT_TYPES.map((t) => ({ unit_type: t, gender_preference: allowsGenderPreference(t) ? "female_preferred" : "no_preference" })));
  });
});
