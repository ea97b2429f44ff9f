/**
 * The bench's worker (test/bench/deal-pdf.mjs bundles it): makes the signed agreement PDF with the
 * product's own code (worker/services/deals/pdf.ts) from a fixed deal, and times it inside workerd.
 */
import { makeSignedPdf } from "../../worker/services/deals/pdf";
import { renderAgreementV1 } from "../../worker/services/deals/agreement-template-v1";
import type { DealEventRow, DealRow } from "../../worker/db/queries/deals";

const text = renderAgreementV1({
  tenantName: "Zoë Ångström-Łukasiewicz",
  subtenantName: "José Núñez Ibáñez",
  address: "221 Bleecker St, Apt 4B, New York, NY 10012",
  unitType: "2x1",
  parking: true,
  pets: false,
  moveIn: "Jan 5, 2027",
  moveOut: "May 20, 2027",
  timeZone: "America/New_York",
  monthlyRent: "$1,450.00",
  dueDay: 5,
  firstPayment: { rent: "$1,450.00", fee: "$72.50", total: "$1,522.50", feePercent: 5, byDays: false },
  landlord: { status: "granted", name: "Pat Owner" },
});
const at = (m: number) => new Date(Date.UTC(2026, 11, 1, 12, m)).toISOString();
const types = ["requested", "accepted", "viewed", "viewed", "landlord_consent_requested", "landlord_consent_granted", "viewed", "viewed", "esign_consent", "signed", "esign_consent", "signed", "completed"];
const events: DealEventRow[] = types.map((type, i) => ({
  id: `e${i}`,
  type,
  actor_id: i % 2 ? "renterid0000000000001" : "listerid0000000000001",
  actor_role: i % 2 ? "renter" : "lister",
  at: at(i),
  ip: i % 3 ? "203.0.113.77" : "2001:db8:abcd:12::1",
  user_agent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
  agreement_version: 3,
  document_sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  details: i === 9 || i === 11 ? JSON.stringify({ typed_name: i === 9 ? "José Núñez Ibáñez" : "Zoë Ångström-Łukasiewicz" }) : null,
}));
const deal = { id: "benchdeal000000000001", listing_title: "Sunny 2x1 near campus", time_zone: "America/New_York", renter_signed_at: at(9), lister_signed_at: at(11), updated_at: at(12) } as DealRow;
const names = (first: string, last: string) => ({ first_name: first, last_name: last, legal_first_name: first, legal_last_name: last });

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    if (new URL(request.url).pathname === "/noop") return new Response("ok");
    const started = performance.now();
    const pdf = await makeSignedPdf(env, {
      deal,
      agreement: { version: 3, template: "agreement-template-v1", text, sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", created_at: at(6) },
      events,
      renterName: names("José", "Núñez Ibáñez"),
      listerName: names("Zoë", "Ångström-Łukasiewicz"),
    });
    return Response.json({ bytes: pdf.length, inside_ms: performance.now() - started });
  },
};
