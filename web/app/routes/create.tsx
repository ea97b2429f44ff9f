import { CreateListingPage } from "../../features/listing-form/components/create-listing-page";
import { SignInOnArrival } from "../guards";

/** Signed in; a visitor reads the spec's log-in message and the Sign In popup opens. */
export default function CreateRoute() {
  return (
    <>
      <SignInOnArrival />
      <CreateListingPage />
    </>
  );
}
