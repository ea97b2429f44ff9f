import { SignupPage } from "../../features/auth/components/signup-page";
import { RequireVisitor } from "../guards";

export default function SignupRoute() {
  return (
    <RequireVisitor>
      <SignupPage />
    </RequireVisitor>
  );
}
