/**
 * The agreement of a deal: the template filled from the deal's snapshot and the parties' legal names
 * (docs/decisions/026). The same deal facts always make the same text; its SHA-256 is what both sign.
 */
import { firstPayment, shortDate } from "../../contract/deals";
import type { Db } from "../../db/client";
import { partyNameRow, type DealRow, type PartyNameRow } from "../../db/queries/deals";
import { sha256Hex } from "../../lib/encoding";
import type { AgreementFacts } from "./agreement-template-v1";
// New agreements use v4 (v3, whose Original Lease clause points to the lease attached to the deal: docs/decisions/041); older ones stay as stored.
import { renderAgreementV4, TEMPLATE_ID } from "./agreement-template-v4";

export interface AgreementDraft {
  template: string;
  text: string;
  sha256: string;
}

const dollars = (cents: number) => `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

type NameRow = Pick<PartyNameRow, "first_name" | "last_name" | "legal_first_name" | "legal_last_name">;

/** A party's legal name (recorded at verification), else the account's name marked as unverified. */
export const legalNameOf = (u: NameRow | null) =>
  !u ? "(deleted account)" : u.legal_first_name !== null && u.legal_last_name !== null ? `${u.legal_first_name} ${u.legal_last_name}` : `${u.first_name} ${u.last_name} (identity not yet verified)`;

export const partyNames = async (db: Db, d: Pick<DealRow, "renter_id" | "lister_id">) => {
  const [renter, lister] = await Promise.all([partyNameRow(db, d.renter_id), partyNameRow(db, d.lister_id)]);
  return { renter, lister };
};

type AgreementInput = Pick<
  DealRow,
  "renter_id" | "lister_id" | "move_in" | "move_out" | "time_zone" | "monthly_rent" | "fee_percent" | "address" | "unit_type" | "parking" | "allow_pets" | "landlord_consent" | "landlord_name"
>;

export async function agreementFor(db: Db, d: AgreementInput): Promise<AgreementDraft> {
  const { renter, lister } = await partyNames(db, d);
  const fee = d.fee_percent ?? 0;
  const pay = firstPayment(d.monthly_rent, d.move_in, d.move_out, fee);
  const landlord: AgreementFacts["landlord"] =
    d.landlord_consent === "not_needed"
      ? { status: "not_needed" }
      : d.landlord_consent === "granted"
        ? { status: "granted", name: d.landlord_name ?? "the Landlord" }
        : { status: d.landlord_consent as "requested" | "declined" | "none", name: d.landlord_name };
  const text = renderAgreementV4({
    tenantName: legalNameOf(lister),
    subtenantName: legalNameOf(renter),
    address: d.address ?? "",
    unitType: d.unit_type ?? "other",
    parking: !!d.parking,
    pets: !!d.allow_pets,
    moveIn: shortDate(d.move_in),
    moveOut: shortDate(d.move_out),
    timeZone: d.time_zone,
    monthlyRent: dollars(d.monthly_rent * 100),
    // The move-in day of each month (at most the 28th, which every month has).
    dueDay: Math.min(Number(d.move_in.slice(8, 10)), 28),
    firstPayment: { rent: dollars(pay.rent_cents), fee: dollars(pay.fee_cents), total: dollars(pay.total_cents), feePercent: fee, byDays: pay.by_days },
    landlord,
  });
  return { template: TEMPLATE_ID, text, sha256: await sha256Hex(text) };
}
