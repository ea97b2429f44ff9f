import { useState, type FormEvent } from "react";
import { EMAILED_CODE } from "@contract/limits";
import { Dialog } from "../../../components/ui/dialog";
import { FormError, TextField } from "../../../components/ui/field";
import { authErrorMessage } from "../lib/throttle";
import { useGoogleLink, useSendSignInCode } from "../api/auth-api";
import { CodeField, codeProblem } from "./code-field";

interface GoogleLinkDialogProps {
  /** The existing account's email and the Google credential that asked to link to it. */
  link: { email: string; token: string; detail: string } | null;
  onClose: () => void;
  onSignedIn: () => void;
}

/**
 * Google sign-in found an account with the same email that is not linked to Google yet: the server
 * starts no session until the person proves the account is theirs, with its password or an emailed code.
 */
export function GoogleLinkDialog({ link, onClose, onSignedIn }: GoogleLinkDialogProps) {
  const [mode, setMode] = useState<"password" | "code">("password");
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [invalid, setInvalid] = useState<string | null>(null);
  const send = useSendSignInCode();
  const connect = useGoogleLink();
  const failed = send.error ?? connect.error;
  const error = invalid ?? (failed && authErrorMessage(failed));

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!link) return;
    setInvalid(null);
    send.reset();
    connect.reset();
    if (mode === "password") {
      if (!password) return setInvalid("Password is required");
      connect.mutate({ token: link.token, proof: { password } }, { onSuccess: onSignedIn });
    } else {
      const problem = codeProblem(code);
      if (problem) return setInvalid(problem);
      connect.mutate({ token: link.token, proof: { code } }, { onSuccess: onSignedIn });
    }
  }

  function emailCode() {
    if (!link) return;
    setInvalid(null);
    connect.reset();
    send.mutate(link.email, { onSuccess: () => setMode("code") });
  }

  return (
    <Dialog open={link !== null} onClose={onClose} size="sm" title="Link your Google account" description={link?.detail ?? ""}>
      <form onSubmit={onSubmit} noValidate className="stack">
        <TextField label="Email" type="email" value={link?.email ?? ""} readOnly />
        {mode === "password" ? (
          <TextField label="Password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} data-autofocus />
        ) : (
          <CodeField hint={`We emailed a ${EMAILED_CODE.length}-digit code to ${link?.email ?? "you"}.`} value={code} onCode={setCode} />
        )}
        <FormError message={error} />
        <button type="submit" className="button button-primary" disabled={connect.isPending}>
          {connect.isPending ? "Linking…" : "Link and sign in"}
        </button>
        {mode === "password" && (
          <button type="button" className="link-button" onClick={emailCode} disabled={send.isPending}>
            Email me a code instead
          </button>
        )}
      </form>
    </Dialog>
  );
}
