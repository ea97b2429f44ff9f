import { CreateListingPage } from "../../features/listing-form/components/create-listing-page";

export default function CreateRoute() {
  return <CreateListingPage />;
}
