import { describe, expect, it } from "vitest";
import { json, post } from "../helpers";

describe("staff sign-in", () => {
  it("a pasted password over 200 characters is refused in words, not with the validator's wording", async () => {
    const res = await post("/api/v1/admin/login", { password: "x".repeat(201) });
    expect(res.status).toBe(422);
    const body = await json<{ detail: string }>(res);
    expect(JSON.stringify(body)).toContain("That password is too long: the staff password is at most 200 characters");
    expect(JSON.stringify(body)).not.toContain("Too big");
  });
});
