import { ListingPage } from "../../features/listing/components/listing-page";

export default function ListingRoute() {
  return <ListingPage />;
}
