import { useState, type FormEvent } from "react";
import { DEAL_TIMING, type Deal } from "@contract/deals";
import { FormError, TextField } from "../../../components/ui/field";
import { errorMessage } from "../../../lib/api-client";
import { CONSENT_LABELS } from "../../../lib/deal-status";
import { useLandlordConsent } from "../api/deals-api";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The lister settles the landlord's consent before anyone signs: an attestation that the lease allows
 * subletting (it goes into the agreement), or a request emailed to the landlord. Both parties see the status.
 */
export function LandlordConsentSection({ deal, onDone }: { deal: Deal; onDone: () => void }) {
  const status = deal.landlord_consent.status;
  // Whether it can change now is the server's (`actions`: until the first signature); a granted consent is not asked again.
  const changeable = deal.actions.includes("landlord_consent") && status !== "granted";
  const [editing, setEditing] = useState(status === "none");
  if (deal.status === "requested") return null;
  return (
    <section className="panel stack-sm" aria-labelledby="consent-heading">
      <h2 id="consent-heading">Landlord consent</h2>
      <p>
        Status: <strong>{CONSENT_LABELS[status]}</strong>
      </p>
      {deal.waiting_for.step === "landlord_consent" && deal.waiting_for.detail.includes("declined a sublease") && <p role="note">{deal.waiting_for.detail}</p>}
      {status === "requested" && <p className="muted">We emailed your landlord a link to consent or decline. You can send it again (up to {DEAL_TIMING.consentEmailsPerDay} emails a day) or change your answer until someone signs.</p>}
      {changeable &&
        (editing || status === "none" ? (
          <ConsentForm deal={deal} onDone={() => (setEditing(false), onDone())} />
        ) : (
          <button type="button" className="button button-ghost" onClick={() => setEditing(true)}>
            Change
          </button>
        ))}
    </section>
  );
}

function ConsentForm({ deal, onDone }: { deal: Deal; onDone: () => void }) {
  const save = useLandlordConsent();
  const [choice, setChoice] = useState<"not_needed" | "request" | null>(null);
  const [attested, setAttested] = useState(false);
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [reason, setReason] = useState("");
  const [away, setAway] = useState("");
  const [checked, setChecked] = useState(false);
  const errors = {
    choice: !choice ? "Please choose one." : null,
    attested: choice === "not_needed" && !attested ? "Please confirm what your lease allows." : null,
    name: choice === "request" && !name.trim() ? "Please enter your landlord's name." : null,
    email: choice === "request" && !EMAIL.test(email.trim()) ? "Please enter your landlord's email address." : null,
  };
  const shown = (key: keyof typeof errors) => (checked ? errors[key] : null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (Object.values(errors).some(Boolean) || save.isPending) return;
    const input =
      choice === "not_needed"
        ? ({ not_needed: true } as const)
        : { landlord_name: name.trim(), landlord_email: email.trim(), reason: reason.trim() || null, tenant_address: away.trim() || null };
    save.mutate({ id: deal.id, input }, { onSuccess: onDone });
  };

  return (
    <form className="stack-sm" onSubmit={submit} noValidate>
      <fieldset className="field consent-choices" aria-describedby={shown("choice") ? "consent-choice-error" : undefined}>
        <legend className="field-label">Most leases need the landlord's written consent to sublet. Which is true for yours?</legend>
        <label className="radio-row">
          <input type="radio" name="consent" checked={choice === "not_needed"} onChange={() => setChoice("not_needed")} />
          My lease allows subletting without consent
        </label>
        <label className="radio-row">
          <input type="radio" name="consent" checked={choice === "request"} onChange={() => setChoice("request")} />
          Ask my landlord for consent
        </label>
        {shown("choice") && (
          <span className="field-error" id="consent-choice-error" role="alert">
            {shown("choice")}
          </span>
        )}
      </fieldset>
      {choice === "not_needed" && (
        <div className="field">
          <label className="check-row">
            <input
              type="checkbox"
              checked={attested}
              onChange={(e) => setAttested(e.target.checked)}
              aria-invalid={shown("attested") ? true : undefined}
              aria-describedby={shown("attested") ? "consent-attest-error" : undefined}
            />
            <span>I confirm that my lease lets me sublet without my landlord's consent. This statement goes into the agreement.</span>
          </label>
          {shown("attested") && (
            <span className="field-error" id="consent-attest-error" role="alert">
              {shown("attested")}
            </span>
          )}
        </div>
      )}
      {choice === "request" && (
        <>
          <TextField label="Landlord's name" value={name} onChange={(e) => setName(e.target.value)} error={shown("name")} autoComplete="off" maxLength={200} />
          <TextField
            label="Landlord's email"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={shown("email")}
            autoComplete="off"
            maxLength={254}
            hint="We email a link where your landlord can consent or decline, without an account. The page tells them you gave this address."
          />
          <TextField label="Why you sublet (optional)" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} hint="Shown to your landlord, for example “Summer internship in Chicago”." />
          <TextField label="Where you will live meanwhile (optional)" value={away} onChange={(e) => setAway(e.target.value)} maxLength={300} autoComplete="off" />
        </>
      )}
      <FormError message={save.isError ? errorMessage(save.error, "Could not save. Please try again.") : null} />
      <div className="row row-start">
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          {save.isPending ? "Saving…" : choice === "request" ? "Send the request" : "Save"}
        </button>
      </div>
    </form>
  );
}
