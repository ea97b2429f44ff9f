/**
 * Paying to promote a listing, as a student would without Stripe keys: 'Promote!' leads to the
 * built-in test checkout, Pay delivers signed events through the real webhook, the profile shows the
 * success dialog, the billing page the promotion, and cancelling leaves it 'Cancelled' to its end.
 */
import { describe, expect, it } from "vitest";
import { useBrowser } from "./fixtures";
import { apiCall, apiLogin, signInContext } from "./session";

const b = useBrowser({ width: 1280, height: 900 });

interface OwnListing {
  id: string;
  title: string;
  verification_status: string;
  status: string;
  moderation_status: string;
  promoted: boolean;
  stripe_subscription_id: string | null;
}

describe("promotion through the test checkout", () => {
  it("promotes, shows the success dialog and the billing page, then cancels", { timeout: 90_000 }, async () => {
    const lister = await apiLogin(b.baseUrl, "lister@campusnest.dev", "lister-demo-123");
    const own = await apiCall<{ data: OwnListing[] }>(b.baseUrl, "users/listings?include_unavailable=true", {
      headers: { Authorization: `Bearer ${lister.access_token}` },
    });
    const listing = own.data.find(
      (l) => l.verification_status === "approved" && l.status === "available" && l.moderation_status === "visible" && !l.promoted && !l.stripe_subscription_id,
    )!;
    await signInContext(b.context, lister);
    const { page } = b;

    await page.goto(`/promote?listing_id=${listing.id}`);
    await page.getByText("Weekly Promotion").first().waitFor();
    await page.getByText(listing.title).first().waitFor();
    await page.getByRole("button", { name: "Promote!" }).click();

    // The built-in checkout (development only) looks like one: plan, price, Pay.
    await page.waitForURL(/\/dev\/checkout\//);
    await page.getByText("$5").first().waitFor();
    await page.getByRole("button", { name: /Pay/ }).click();

    await page.waitForURL(/\/profile\?promotion_success=true/);
    await page.getByRole("dialog").waitFor();
    await page.getByRole("dialog").getByRole("link", { name: /billing/i }).click();

    await page.waitForURL(/\/billing/);
    const row = page.locator("li, article, tr", { hasText: listing.title }).first();
    await row.getByText("Promoted", { exact: true }).waitFor();
    await row.getByRole("button", { name: /Cancel Subscription/i }).click();
    const confirm = page.getByRole("dialog");
    await confirm.getByRole("button", { name: /Cancel Subscription|Yes|Confirm/i }).last().click();
    await row.getByText("Cancelled", { exact: true }).waitFor();

    // The promotion still runs to its end: the listing stays featured on the browse page.
    const status = await apiCall<{ data: { promoted: boolean; auto_renew: boolean; state: string } }>(b.baseUrl, `promotions/status/${listing.id}`, {
      headers: { Authorization: `Bearer ${lister.access_token}` },
    });
    expect(status.data).toMatchObject({ promoted: true, auto_renew: false, state: "cancelled" });
  });
});
