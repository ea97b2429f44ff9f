import { PromotePage } from "../../features/promote/components/promote-page";
import { SignInOnArrival } from "../guards";

/** A locked page (docs/product-rules.md "Pages and who may open them"): a visitor is told to log in rather than sent away, and the Sign In popup opens. */
export default function PromoteRoute() {
  return (
    <>
      <SignInOnArrival />
      <PromotePage />
    </>
  );
}
