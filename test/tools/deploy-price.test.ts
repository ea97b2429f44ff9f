/**
 * `npm run deploy` refuses a STRIPE_PRICE_ID whose amount differs from the plan (one source:
 * worker/contract/promotion-plan.json), reading the price through the Stripe SDK from a fake Stripe.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROMOTION_PLAN as CONTRACT_PLAN } from "../../worker/contract/promotions";
import { PROMOTION_PLAN, promotionPriceProblem } from "../../scripts/lib/promotion-price.mjs";

const prices: Record<string, object> = {
  price_right: { id: "price_right", object: "price", unit_amount: 500, currency: "usd", recurring: { interval: "week", interval_count: 1 } },
  price_dear: { id: "price_dear", object: "price", unit_amount: 900, currency: "usd", recurring: { interval: "week", interval_count: 1 } },
  price_monthly: { id: "price_monthly", object: "price", unit_amount: 500, currency: "usd", recurring: { interval: "month", interval_count: 1 } },
};
const seen: string[] = [];
let server: Server;
let fake: { apiHost: string; apiPort: string; apiProtocol: string; secretKey: string };

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization}`);
    const price = prices[(req.url ?? "").replace("/v1/prices/", "")];
    res.writeHead(price ? 200 : 404, { "content-type": "application/json", "request-id": "req_fake" });
    res.end(JSON.stringify(price ?? { error: { type: "invalid_request_error", message: "No such price" } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake = { apiHost: "127.0.0.1", apiPort: String((server.address() as AddressInfo).port), apiProtocol: "http", secretKey: "sk_test_fake" };
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("deploy's promotion price check", () => {
  it("reads the same plan as the contract (one source)", () => {
    expect(PROMOTION_PLAN.amount).toBe(CONTRACT_PLAN.amount);
    expect(CONTRACT_PLAN.priceLabel).toBe("$5/week");
  });

  it("passes a configured price of the plan's amount, currency and interval, read with the secret key", async () => {
    expect(await promotionPriceProblem({ ...fake, priceId: "price_right" })).toBeNull();
    expect(seen.at(-1)).toBe("GET /v1/prices/price_right Bearer sk_test_fake");
  });

  it("refuses a price of another amount or interval, and one Stripe does not know", async () => {
    expect(await promotionPriceProblem({ ...fake, priceId: "price_dear" })).toMatch(/charges 900 USD minor units per week, but the promotion is 500 USD/);
    expect(await promotionPriceProblem({ ...fake, priceId: "price_monthly" })).toMatch(/per month, but the promotion is 500 USD minor units per week/);
    expect(await promotionPriceProblem({ ...fake, priceId: "price_gone" })).toMatch(/Could not read STRIPE_PRICE_ID price_gone/);
  });

  it("has nothing to check without a price id, and refuses one it cannot read without the secret key", async () => {
    expect(await promotionPriceProblem({ ...fake, priceId: "" })).toBeNull();
    expect(await promotionPriceProblem({ ...fake, priceId: "price_right", secretKey: "" })).toMatch(/STRIPE_SECRET_KEY is not/);
  });
});
