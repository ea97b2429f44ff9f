import type { PublicListing } from "@contract/listings";
import { RequestDeal } from "../../features/deals/components/request-deal";
import { ListingPage } from "../../features/listing/components/listing-page";

const requestDeal = (listing: PublicListing) => <RequestDeal listing={listing} />;

export default function ListingRoute() {
  return <ListingPage requestDeal={requestDeal} />;
}
