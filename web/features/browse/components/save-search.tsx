import { useState } from "react";
import { deferred } from "../../../components/ui/deferred";
import { useSession } from "../../../lib/session";
import { useSignInHere } from "../../../lib/sign-in-prompt";

/** The dialog loads on first use, in its own chunk: the home page carries only the button. */
const SaveSearchDialog = deferred(() => import("./save-search-dialog").then((m) => m.SaveSearchDialog));

/**
 * "Save this search", shown while a filter is active: signed in, a small dialog (name,
 * Instant or Daily digest); a visitor is asked to sign in first and the dialog opens after.
 */
export function SaveSearchButton({ query, active }: { query: string; active: boolean }) {
  const { session } = useSession();
  const signInHere = useSignInHere();
  const [open, setOpen] = useState(false);
  if (!active) return null;

  function onClick() {
    if (!session) {
      signInHere({ prompt: "Please log in to save searches", afterSignIn: () => setOpen(true) });
      return;
    }
    setOpen(true);
  }

  return (
    <div className="save-search">
      <button
        type="button"
        className="button button-ghost"
        onClick={onClick}
        onMouseEnter={() => void SaveSearchDialog.preload().catch(() => {})}
        onFocus={() => void SaveSearchDialog.preload().catch(() => {})}
      >
        <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
          <path d="M6 3h12v18l-6-4-6 4z" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
        </svg>
        Save this search
      </button>
      {open && <SaveSearchDialog load open={open} query={query} onClose={() => setOpen(false)} />}
    </div>
  );
}
