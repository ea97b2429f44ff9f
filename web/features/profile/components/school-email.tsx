import { useState, type FormEvent } from "react";
import { SCHOOL_EMAIL_VALID_DAYS } from "@contract/users";
import { EMAILED_CODE } from "@contract/limits";
import { FormError, TextField } from "../../../components/ui/field";
import { OWN_SCHOOL_EMAIL_EXPLAINED, SchoolEmailBadge } from "../../../components/ui/school-email-badge";
import { useToast } from "../../../components/ui/toast";
import { useSession } from "../../../lib/session";
import { useConfirmSchoolEmail, useSendSchoolEmailCode } from "../api/profile-api";
import { profileErrorMessage, useSessionExpiry } from "../hooks/use-profile-errors";

/**
 * Adds (or reconfirms) a school email: the address, then the 6-digit code mailed there. The badge
 * lapses a year after its code (docs/decisions/028), so an old one asks to be confirmed again.
 */
export function SchoolEmail() {
  const { session } = useSession();
  const toast = useToast();
  const expireOn401 = useSessionExpiry();
  const user = session!.user;
  const send = useSendSchoolEmailCode();
  const confirm = useConfirmSchoolEmail();
  const [email, setEmail] = useState(user.school_email ?? "");
  const [code, setCode] = useState("");
  const [sentTo, setSentTo] = useState<string | null>(null);
  const lapsed = !!user.school_email && !user.school_email_domain;

  function onSend(event: FormEvent) {
    event.preventDefault();
    confirm.reset();
    send.mutate(email.trim(), { onSuccess: () => setSentTo(email.trim().toLowerCase()), onError: expireOn401 });
  }

  function onConfirm(event: FormEvent) {
    event.preventDefault();
    confirm.mutate(code.trim(), {
      onSuccess: ({ domain }) => {
        setSentTo(null);
        setCode("");
        toast.show(`School email verified: ${domain}`, { kind: "success" });
      },
      onError: expireOn401,
    });
  }

  return (
    <section className="panel stack-sm" aria-labelledby="school-email-heading">
      <h2 id="school-email-heading">School email</h2>
      <p className="muted">{OWN_SCHOOL_EMAIL_EXPLAINED}</p>
      {user.school_email_domain && (
        <p>
          <SchoolEmailBadge domain={user.school_email_domain} own />
        </p>
      )}
      {lapsed && <p role="status">Your school email was confirmed over {SCHOOL_EMAIL_VALID_DAYS} days ago. Confirm it again to keep the badge.</p>}
      {sentTo ? (
        <form onSubmit={onConfirm} noValidate className="stack-sm">
          <TextField label={`${EMAILED_CODE.length}-digit code sent to ${sentTo}`} inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} />
          <FormError message={confirm.error && profileErrorMessage(confirm.error, "Could not confirm the code")} />
          <div className="row row-start">
            <button type="submit" className="button button-primary" disabled={confirm.isPending || !code.trim()}>
              {confirm.isPending ? "Confirming…" : "Confirm"}
            </button>
            <button type="button" className="button button-ghost" onClick={() => setSentTo(null)}>
              Use another address
            </button>
          </div>
        </form>
      ) : (
        <form onSubmit={onSend} noValidate className="stack-sm">
          <TextField label="School email address" type="email" autoComplete="email" placeholder="name@ufl.edu" value={email} onChange={(e) => setEmail(e.target.value)} />
          <FormError message={send.error && profileErrorMessage(send.error, "Could not send the code")} />
          <div>
            <button type="submit" className="button button-primary" disabled={send.isPending || !email.trim()}>
              {send.isPending ? "Sending…" : user.school_email ? "Send a new code" : "Send code"}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
