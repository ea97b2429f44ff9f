import { DealPage } from "../../features/deals/components/deal-page";
import { LandlordConsentPage } from "../../features/deals/components/landlord-consent-page";
import { RequireSignedIn } from "../guards";

/** The deal page and the landlord's page share one chunk (router.tsx): one name in the entry's map. */
export function DealRoute() {
  return (
    <RequireSignedIn visitorMessage="Please log in to see this deal.">
      <DealPage />
    </RequireSignedIn>
  );
}

/** No account and no sign-in prompt: the link in the landlord's email is the permission. */
export function LandlordConsentRoute() {
  return <LandlordConsentPage />;
}
