import { PromotePage } from "../../features/promote/components/promote-page";

/** Signed in (spec route table); a visitor is told to log in rather than sent away (spec section 8). */
export default function PromoteRoute() {
  return <PromotePage />;
}
