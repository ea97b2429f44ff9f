import { lazy, Suspense, type ReactNode } from "react";
import { Link, useNavigate } from "react-router-dom";
import { looksIdVerified } from "@contract/policies";
import { PageFrame } from "../../../components/layout/page-frame";
import { paths } from "../../../config/paths";
import { useSession } from "../../../lib/session";
import { AvatarUploader } from "./avatar-uploader";
import { BlockedUsers } from "./blocked-users";
import { DeleteAccount } from "./delete-account";
import { EditProfileForm } from "./edit-profile-form";
import { MyDeals } from "./my-deals";
import { NotificationToggles } from "./notification-toggles";
import { PayoutsSection } from "./payouts-section";
import { PromotionSuccessDialog } from "./promotion-success-dialog";
import { SavedSearches } from "./saved-searches";
import { SchoolEmail } from "./school-email";
import { SchoolEmailBadge } from "../../../components/ui/school-email-badge";
import { PersonReviewSummaries } from "../../../components/ui/reviews";
import { usePublicUser } from "../../../lib/public-user-api";

// Lazy: the push client code loads with this section, never with the home page (docs/decisions/027).
const PushSettings = lazy(() => import("./push-settings"));

/** The badge's words; "approved" reads as Verified (docs/product-rules.md "States"). */
const ID_STATUS_TEXT: Record<string, string> = {
  unverified: "Not verified",
  pending: "Awaiting review",
  approved: "Verified",
  verified: "Verified",
  rejected: "Rejected",
};

export function ProfilePage({ listings }: { listings?: ReactNode }) {
  const { session, signOut } = useSession();
  const navigate = useNavigate();
  const user = session!.user;
  const idStatus = user.id_verification_status;
  // What others read of you (GET users/{id}): the review summaries live there, not on the private profile.
  const publicSelf = usePublicUser(user.id);
  return (
    <PageFrame title="My Profile">
      <div className="profile-grid">
        <section className="panel stack" aria-labelledby="about-heading">
          <div className="profile-head">
            <AvatarUploader />
            <div>
              <h2 id="about-heading">
                {user.first_name} {user.last_name}
              </h2>
              <p className="muted">{user.email}</p>
              <p>
                <span className={`badge badge-${idStatus}`}>{ID_STATUS_TEXT[idStatus] ?? idStatus}</span>{" "}
                {!looksIdVerified(idStatus) && idStatus !== "pending" && (
                  <Link to={paths.verification}>Get verified</Link>
                )}{" "}
                <SchoolEmailBadge domain={user.school_email_domain} own />
              </p>
              <PersonReviewSummaries user={publicSelf.data} own />
            </div>
          </div>
          <h2>Edit profile</h2>
          <EditProfileForm />
        </section>
        <aside className="stack">
          <section className="panel stack-sm" aria-labelledby="notifications-heading">
            <h2 id="notifications-heading">Email notifications</h2>
            <NotificationToggles />
          </section>
          <section className="panel stack-sm" aria-labelledby="push-heading">
            <h2 id="push-heading">Push notifications</h2>
            <Suspense fallback={<p className="muted">Loading…</p>}>
              <PushSettings />
            </Suspense>
          </section>
          <SchoolEmail />
          <PayoutsSection />
          <SavedSearches />
          <BlockedUsers />
          <section className="panel stack-sm" aria-labelledby="account-heading">
            <h2 id="account-heading">Account</h2>
            <div className="row row-start">
              <button
                type="button"
                className="button button-ghost"
                onClick={() => {
                  signOut();
                  navigate(paths.home);
                }}
              >
                Sign out
              </button>
              <DeleteAccount />
            </div>
          </section>
        </aside>
        <MyDeals />
        {listings}
      </div>
      <PromotionSuccessDialog />
    </PageFrame>
  );
}
