import { matchPath, useLocation } from "react-router-dom";
import { DealPage } from "../../features/deals/components/deal-page";
import { LandlordConsentPage } from "../../features/deals/components/landlord-consent-page";
import { DEAL_ROUTES } from "../../lib/deals-api";
import { RequireSignedIn } from "../guards";

/** The deal page and the landlord's consent page are one lazy page (router.tsx): this picks by the path. */
export default function DealPagesRoute() {
  return matchPath(DEAL_ROUTES.landlordConsent, useLocation().pathname) ? <LandlordConsentRoute /> : <DealRoute />;
}

function DealRoute() {
  return (
    <RequireSignedIn visitorMessage="Please log in to see this deal.">
      <DealPage />
    </RequireSignedIn>
  );
}

/** No account and no sign-in prompt: the link in the landlord's email is the permission. */
function LandlordConsentRoute() {
  return <LandlordConsentPage />;
}
