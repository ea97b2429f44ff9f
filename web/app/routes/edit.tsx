import { EditListingPage } from "../../features/listing-form/components/edit-listing-page";
import { RequireSignedIn } from "../guards";

export default function EditRoute() {
  return (
    <RequireSignedIn visitorMessage="Please log in to edit your listing">
      <EditListingPage />
    </RequireSignedIn>
  );
}
