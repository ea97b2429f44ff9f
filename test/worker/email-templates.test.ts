import { describe, expect, it } from "vitest";
import { savedSearchAlertEmail, verificationCodeEmail } from "../../worker/services/email-templates";

describe("the emails' shared layout", () => {
  it("renders at a phone's width (viewport meta), the saved-search alert included", () => {
    const viewport = '<meta name="viewport" content="width=device-width, initial-scale=1">';
    const alert = savedSearchAlertEmail("maya@ufl.edu", "Maya", "UF fall", [{ title: "Sunny room", monthlyRent: 800, url: "https://x/l/1" }], 1, "https://x/s", "https://x/u");
    expect(alert.html.startsWith(`<!doctype html><html><head>${viewport}</head><body`)).toBe(true);
    expect(verificationCodeEmail("maya@ufl.edu", "Maya", "123456").html).toContain(viewport);
  });
});
