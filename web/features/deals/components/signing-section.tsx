import { useState, type FormEvent } from "react";
import { EMAILED_CODE } from "@contract/limits";
import { DEAL_WORDS, type Deal } from "@contract/deals";
import { FormError, TextField } from "../../../components/ui/field";
import { ApiError, errorMessage } from "../../../lib/api-client";
import { personName, type DealRole } from "../../../lib/deal-status";
import { useAgreement, useSignCode, useSignDeal } from "../api/deals-api";

const when = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });

/** Who has signed, and for the viewer who has not: the electronic-records consent, then the signature. */
export function SigningSection({ deal, role, onSigned }: { deal: Deal; role: DealRole; onSigned: () => void }) {
  if (deal.status !== "accepted" && deal.status !== "signed") return null;
  const signedAt = { renter: deal.agreement?.renter_signed_at ?? null, lister: deal.agreement?.lister_signed_at ?? null };
  const mine = signedAt[role];
  return (
    <section className="panel stack-sm" aria-labelledby="signing-heading">
      <h2 id="signing-heading">Signatures</h2>
      <ul className="deal-signatures">
        {(["renter", "lister"] as const).map((r) => (
          <li key={r}>
            {personName(deal[r])} ({r === "renter" ? "subtenant" : "tenant"}
            {r === role ? ", you" : ""}): {signedAt[r] ? <>signed {when(signedAt[r])}</> : "not signed yet"}
          </li>
        ))}
      </ul>
      {/* Whether the viewer may sign now is the server's (`actions`); else whose step it is. */}
      {deal.actions.includes("sign") ? <SignForm deal={deal} onSigned={onSigned} /> : !mine && deal.status === "accepted" ? <p className="muted">{deal.waiting_for.detail}</p> : null}
    </section>
  );
}

function SignForm({ deal, onSigned }: { deal: Deal; onSigned: () => void }) {
  const [consented, setConsented] = useState(false);
  const [name, setName] = useState("");
  const [intent, setIntent] = useState(false);
  const [code, setCode] = useState("");
  const [checked, setChecked] = useState(false);
  const sendCode = useSignCode();
  const sign = useSignDeal();
  // The version and hash of the text the signer read (the agreement shown above): a newer one is refused (409).
  const agreement = useAgreement(deal, true);
  const read = agreement.data ? { agreement_version: agreement.data.version, sha256: agreement.data.sha256 } : null;
  const errors = {
    name: !name.trim() ? "Please type your full legal name." : null,
    intent: !intent ? "Please tick “I intend to sign” to sign." : null,
    code: EMAILED_CODE.pattern.test(code) ? null : EMAILED_CODE.message,
  };
  const shown = (key: keyof typeof errors) => (checked ? errors[key] : null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (Object.values(errors).some(Boolean) || sign.isPending || !read) return;
    sign.mutate(
      { id: deal.id, input: { typed_name: name.trim(), intent: true, esign_consent: true, code, ...read } },
      {
        onSuccess: onSigned,
        // The agreement changed since it was read: the new text is read again before signing it.
        onError: (err) => void (err instanceof ApiError && err.status === 409 && agreement.refetch()),
      },
    );
  };

  return (
    <div className="stack-sm">
      <div className="esign-disclosure stack-sm" role="group" aria-labelledby="esign-heading">
        <h3 id="esign-heading">Step 1: agree to electronic records</h3>
        <p>Before you sign, please read how signing on CampusNest works:</p>
        <ul>
          <li>
            <strong>What it covers:</strong> this sublease agreement, the records of who viewed and signed it, and the notices about this deal.
          </li>
          <li>
            <strong>A paper copy:</strong> you may ask for a paper copy at any time, free of charge, by writing to CampusNest support.
          </li>
          <li>
            <strong>Withdrawing:</strong> you may withdraw this consent before you sign by writing to support or cancelling the deal; after you sign, withdrawing does not undo the signature.
          </li>
          <li>
            <strong>What you need:</strong> a device that can open PDF files (the signed agreement is a PDF, which we also email you) and an email address that receives our messages. Check now: “Download a draft PDF” above should open.
          </li>
        </ul>
        <label className="check-row">
          <input type="checkbox" checked={consented} onChange={(e) => setConsented(e.target.checked)} />
          <span>I agree to use electronic records and signatures for this agreement, and I can open a PDF.</span>
        </label>
      </div>
      {consented && (
        <form className="stack-sm" onSubmit={submit} noValidate aria-labelledby="sign-heading">
          <h3 id="sign-heading">Step 2: sign</h3>
          <TextField
            label="Your full legal name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={shown("name")}
            autoComplete="name"
            maxLength={200}
            hint="Exactly as on the ID you verified with."
          />
          <div className="field">
            <label className="check-row">
              <input
                type="checkbox"
                checked={intent}
                onChange={(e) => setIntent(e.target.checked)}
                aria-invalid={shown("intent") ? true : undefined}
                aria-describedby={shown("intent") ? "sign-intent-error" : undefined}
              />
              <span>I intend to sign this agreement</span>
            </label>
            {shown("intent") && (
              <span className="field-error" id="sign-intent-error" role="alert">
                {shown("intent")}
              </span>
            )}
          </div>
          <div className="stack-sm">
            <div className="row row-start">
              <button type="button" className="button button-ghost" disabled={sendCode.isPending || !read} onClick={() => read && sendCode.mutate({ id: deal.id, read })}>
                {sendCode.isPending ? "Sending…" : sendCode.isSuccess ? "Email me a new code" : "Email me a code"}
              </button>
            </div>
            <p className="field-hint" role="status">
              {sendCode.isSuccess ? `We emailed you a ${EMAILED_CODE.length}-digit code. It is valid for ${DEAL_WORDS.signCodeMinutes} minutes.` : ""}
            </p>
            {sendCode.isError && <FormError message={errorMessage(sendCode.error, "Could not send the code. Please try again.")} />}
          </div>
          {/* Digits only, and the phone's keyboard offers the code from the email (as the sign-in code field does). */}
          <TextField
            label={`${EMAILED_CODE.length}-digit code`}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={EMAILED_CODE.length}
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, "").slice(0, EMAILED_CODE.length))}
            error={shown("code")}
          />
          <FormError message={sign.isError ? errorMessage(sign.error, "Could not sign. Please try again.") : null} />
          <div className="row row-start">
            <button type="submit" className="button button-primary" disabled={sign.isPending}>
              {sign.isPending ? "Signing…" : "Sign"}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
