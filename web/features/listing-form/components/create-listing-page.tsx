import { useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import type { OwnerListing } from "@contract/listings";
import { canCreateListing } from "@contract/policies";
import { REVIEW_TIME } from "@contract/waits";
import { PageFrame } from "../../../components/layout/page-frame";
import { SignInRequired } from "../../../components/sign-in-required";
import { Dialog } from "../../../components/ui/dialog";
import { paths } from "../../../config/paths";
import { useSession } from "../../../lib/session";
import { ListingForm } from "./listing-form";

export function CreateListingPage() {
  const navigate = useNavigate();
  const { session } = useSession();
  const [created, setCreated] = useState<OwnerListing | null>(null);
  if (!session) return <SignInRequired title="Create listing" message="You must be logged in to create a listing. Please log in and try again." />;
  return (
    <PageFrame title="Create listing" lead={`Our team reviews every listing before it goes live, typically within ${REVIEW_TIME}.`} width="narrow">
      {canCreateListing(session.user) ? (
        <section className="panel">
          <ListingForm onSaved={setCreated} />
        </section>
      ) : (
        <section className="panel notice">
          {session.user.id_verification_status === "pending" ? (
            <>
              <h2>Your ID check is under review</h2>
              <p>Staff review it within {REVIEW_TIME}; you can create listings once it is approved, and we&apos;ll email you.</p>
              <Link to={paths.verification} className="button button-primary">
                See its status
              </Link>
            </>
          ) : (
            <>
              <h2>You must be verified to create a listing</h2>
              <p>Verify your identity once; it takes {REVIEW_TIME} to review.</p>
              <Link to={paths.verification} className="button button-primary">
                Get Verified
              </Link>
            </>
          )}
        </section>
      )}
      <Dialog
        open={created !== null}
        onClose={() => navigate(paths.home)}
        title="Listing Submitted Successfully!"
        description={`Your listing goes to our team for review, typically ${REVIEW_TIME}. We'll email you when it's live.`}
        footer={
          <>
            <Link to={paths.home} className="button button-ghost">
              Back to Home
            </Link>
            <Link to={created?.id ? paths.listing(created.id) : paths.profile} className="button button-primary">
              View My Listing
            </Link>
          </>
        }
      />
    </PageFrame>
  );
}

/** The modal variant (from the profile): the same form, with progress steps; closes 2 s after success. */
export function CreateListingDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [progress, setProgress] = useState(0);
  const [done, setDone] = useState(false);
  const [formKey, setFormKey] = useState(0);
  return (
    <Dialog open={open} onClose={onClose} size="lg" title="Create listing" description={`Our team reviews every listing, typically within ${REVIEW_TIME}.`}>
      {progress > 0 && (
        <div className="progress" role="progressbar" aria-label="Creating listing" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress}>
          <div className="progress-fill" style={{ width: `${progress}%` }} />
          <span className="progress-text">{progress}%</span>
        </div>
      )}
      {done ? (
        <p className="form-notice" role="status">
          Listing Submitted Successfully! It is now waiting for review.
        </p>
      ) : (
        <ListingForm
          key={formKey}
          onProgress={setProgress}
          onSaved={() => {
            setDone(true);
            window.setTimeout(() => {
              onClose();
              setDone(false);
              setProgress(0);
              setFormKey((k) => k + 1);
            }, 2000);
          }}
        />
      )}
    </Dialog>
  );
}
