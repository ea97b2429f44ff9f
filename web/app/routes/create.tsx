import { CreateListingPage } from "../../features/listing-form/components/create-listing-page";
import { SignInOnArrival } from "../guards";

/** Signed in; a visitor reads the product's log-in message (docs/product-rules.md "Pages and who may open them") and the Sign In popup opens. */
export default function CreateRoute() {
  return (
    <>
      <SignInOnArrival />
      <CreateListingPage />
    </>
  );
}
