import { BillingPage } from "../../features/billing/components/billing-page";
import { RequireSignedIn } from "../guards";

/** Signed in; visitors are redirected to / (spec route table). */
export default function BillingRoute() {
  return (
    <RequireSignedIn redirectVisitorsHome>
      <BillingPage />
    </RequireSignedIn>
  );
}
