import { useState } from "react";
import { deferred } from "../../../components/ui/deferred";
import { useSession } from "../../../lib/session";
import { useSignInHere } from "../../../lib/sign-in-prompt";

/** The dialog and its form schema load when it is first opened (off the listing page's first load). */
const ReportDialog = deferred(() => import("../../../components/report-dialog").then((m) => m.ReportDialog));

/** 'Report listing' (docs/decisions/015): signed-in people get the report dialog, visitors the Sign In popup first. */
export function ReportListing({ listingId }: { listingId: string }) {
  const { session } = useSession();
  const signInHere = useSignInHere();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="link-button report-listing" onClick={() => (session ? setOpen(true) : signInHere({ afterSignIn: () => setOpen(true) }))}>
        Report listing
      </button>
      {session && <ReportDialog load={open} open={open} onClose={() => setOpen(false)} title="Report listing" target={{ kind: "listing", listing_id: listingId }} />}
    </>
  );
}
