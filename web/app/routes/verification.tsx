import { VerificationPage } from "../../features/verification/components/verification-page";
import { RequireSignedIn } from "../guards";

export default function VerificationRoute() {
  return (
    <RequireSignedIn visitorMessage="Please log in to verify your identity.">
      <VerificationPage />
    </RequireSignedIn>
  );
}
