import { useState } from "react";
import { ReportDialog } from "../../../components/report-dialog";
import { useSession } from "../../../lib/session";
import { useSignInHere } from "../../../lib/sign-in-prompt";

/** 'Report listing' (issue 13): signed-in people get the report dialog, visitors the Sign In popup first. */
export function ReportListing({ listingId }: { listingId: string }) {
  const { session } = useSession();
  const signInHere = useSignInHere();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="link-button report-listing" onClick={() => (session ? setOpen(true) : signInHere({ afterSignIn: () => setOpen(true) }))}>
        Report listing
      </button>
      {session && <ReportDialog open={open} onClose={() => setOpen(false)} title="Report listing" target={{ kind: "listing", listing_id: listingId }} />}
    </>
  );
}
