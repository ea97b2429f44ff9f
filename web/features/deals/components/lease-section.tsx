import { useRef, useState } from "react";
import type { Deal } from "@contract/deals";
import { EvidencePhoto } from "../../../components/ui/evidence-photo";
import { FormError } from "../../../components/ui/field";
import { errorMessage } from "../../../lib/api-client";
import { dealTime } from "../../../lib/deal-status";
import { loadEvidence, useAttachLease } from "../api/deals-api";
import { uploadDraftPhotos } from "./statement-fields";

/** From acceptance on: the lease can be attached (the server refuses before; docs/decisions/041). */
const ATTACHABLE: readonly Deal["status"][] = ["accepted", "signed", "paid", "moved_in", "disputed", "released"];

/**
 * The original lease (agreement clause 7 points here): the lister attaches a photo of it (or of its
 * relevant pages) as private evidence; both parties read it here, and no one else but staff.
 */
export function LeaseSection({ deal, role }: { deal: Deal; role: "renter" | "lister" }) {
  const attach = useAttachLease();
  const picker = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const lister = role === "lister" && ATTACHABLE.includes(deal.status);
  if (!deal.lease && !lister) {
    return deal.agreement ? (
      <section className="panel stack-sm" aria-labelledby="lease-heading">
        <h2 id="lease-heading">The original lease</h2>
        <p className="muted">{deal.lister.first_name} has not attached the original lease yet. Ask them to before you sign: the agreement makes it part of your sublease.</p>
      </section>
    ) : null;
  }

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    setBusy(true);
    try {
      const [url] = await uploadDraftPhotos([file], () => {});
      await attach.mutateAsync({ id: deal.id, url: url! });
    } catch (err) {
      setError(errorMessage(err, "Could not attach the lease. Please try again."));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel stack-sm" aria-labelledby="lease-heading">
      <h2 id="lease-heading">The original lease</h2>
      {deal.lease ? (
        <>
          <p className="muted">
            Attached by {role === "lister" ? "you" : deal.lister.first_name} on {dealTime(deal.lease.attached_at)}. Only the two of you and CampusNest staff can see it.
          </p>
          <div className="statement-photos">
            <EvidencePhoto url={deal.lease.url} alt="The original lease" load={loadEvidence} />
          </div>
        </>
      ) : (
        <p>Attach a photo of your lease with your landlord (the pages about the place and subletting are enough). The agreement says {deal.renter.first_name} can read it here.</p>
      )}
      {lister && (
        <div className="stack-sm">
          <button type="button" className="button button-ghost" disabled={busy} onClick={() => picker.current?.click()}>
            {deal.lease ? "Replace the lease photo" : "Attach the lease"}
          </button>
          <input
            ref={picker}
            type="file"
            accept="image/*"
            hidden
            aria-label="The lease photo"
            onChange={(e) => {
              void onFile(e.target.files?.[0]);
              e.target.value = "";
            }}
          />
          {busy && <p role="status">Attaching the lease…</p>}
          <FormError message={error} />
        </div>
      )}
    </section>
  );
}
