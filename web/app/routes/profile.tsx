import { ProfilePage } from "../../features/profile/components/profile-page";
import { RequireSignedIn } from "../guards";

export default function ProfileRoute() {
  return (
    <RequireSignedIn>
      <ProfilePage />
    </RequireSignedIn>
  );
}
