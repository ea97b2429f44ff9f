import { BillingPage } from "../../features/billing/components/billing-page";
import { RequireSignedIn } from "../guards";

/** Signed in; a visitor is told why and offered Sign In here, like every other locked page. */
export default function BillingRoute() {
  return (
    <RequireSignedIn visitorMessage="Please log in to see your promotions and billing.">
      <BillingPage />
    </RequireSignedIn>
  );
}
