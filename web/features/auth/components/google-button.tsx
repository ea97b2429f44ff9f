import { useEffect, useRef, useState } from "react";
import { errorMessage } from "../../../lib/api-client";
import { isGoogleLinkRequired, useAuthConfig, useGoogleLogin } from "../api/auth-api";
import { GoogleLinkDialog } from "./google-link-dialog";

const GIS_SRC = "https://accounts.google.com/gsi/client";

interface GoogleIdentity {
  accounts: {
    id: {
      initialize(options: { client_id: string; callback: (response: { credential?: string }) => void }): void;
      renderButton(element: HTMLElement, options: Record<string, unknown>): void;
    };
  };
}
declare global {
  interface Window {
    google?: GoogleIdentity;
  }
}

let scriptPromise: Promise<void> | null = null;
function loadScript(): Promise<void> {
  scriptPromise ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = GIS_SRC;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      scriptPromise = null;
      reject(new Error("Google Identity Services not loaded"));
    };
    document.head.appendChild(script);
  });
  return scriptPromise;
}

/** Google's sign-in button (width 300). Hidden when the server has no Google client id. */
export function GoogleButton({ onSignedIn }: { onSignedIn: () => void }) {
  const config = useAuthConfig();
  const container = useRef<HTMLDivElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const google = useGoogleLogin();
  const signInWithGoogle = google.mutate;
  // An existing account with this email, not linked yet: proof first (GoogleLinkDialog), not an error.
  const [link, setLink] = useState<{ email: string; token: string; detail: string } | null>(null);
  const error = problem ?? (google.error && !isGoogleLinkRequired(google.error) ? errorMessage(google.error, "Google login failed") : null);
  const clientId = config.data?.google_client_id ?? null;

  useEffect(() => {
    if (!clientId) return;
    let cancelled = false;
    loadScript()
      .then(() => {
        if (cancelled || !container.current) return;
        if (!window.google) throw new Error("Google Identity Services not loaded");
        window.google.accounts.id.initialize({
          client_id: clientId,
          callback: ({ credential }) => {
            if (!credential) {
              setProblem("No credential received from Google");
              return;
            }
            setProblem(null);
            signInWithGoogle(credential, {
              onSuccess: onSignedIn,
              onError: (err) => {
                if (isGoogleLinkRequired(err)) setLink({ email: err.body.email, token: credential, detail: err.body.detail });
              },
            });
          },
        });
        window.google.accounts.id.renderButton(container.current, { width: 300, theme: "outline", size: "large" });
      })
      .catch(() => !cancelled && setProblem("Google Identity Services not loaded"));
    return () => {
      cancelled = true;
    };
  }, [clientId, onSignedIn, signInWithGoogle]);

  if (!clientId) return null;
  return (
    <div className="google-button">
      <div className="or-divider" aria-hidden="true">
        <span>or</span>
      </div>
      <div ref={container} style={{ width: 300, maxWidth: "100%" }} />
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <GoogleLinkDialog
        key={link?.token ?? "none"}
        link={link}
        onClose={() => setLink(null)}
        onSignedIn={() => {
          setLink(null);
          onSignedIn();
        }}
      />
    </div>
  );
}
