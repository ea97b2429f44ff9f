import { CreateListingDialog } from "../../features/listing-form/components/create-listing-page";
import { MyListings } from "../../features/profile/components/my-listings";
import { ProfilePage } from "../../features/profile/components/profile-page";
import { RequireSignedIn } from "../guards";

export default function ProfileRoute() {
  return (
    <RequireSignedIn visitorMessage="Please log in to see your profile.">
      <ProfilePage listings={<MyListings renderCreate={(props) => <CreateListingDialog {...props} />} />} />
    </RequireSignedIn>
  );
}
