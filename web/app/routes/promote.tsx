import { PromotePage } from "../../features/promote/components/promote-page";
import { SignInOnArrival } from "../guards";

/** Signed in (spec route table); a visitor is told to log in rather than sent away (spec section 8), and the Sign In popup opens. */
export default function PromoteRoute() {
  return (
    <>
      <SignInOnArrival />
      <PromotePage />
    </>
  );
}
