import { useLocation } from "react-router-dom";
import { deferred } from "../../components/ui/deferred";
import { hasPendingWelcome, isWelcome } from "../../features/auth/lib/welcome";
import { BrowsePage } from "../../features/browse/components/browse-page";

// Only a new student ever sees it: its code loads then, not with every home page (the first load's budget, docs/decisions/023).
const WelcomeLine = deferred(() => import("../../features/auth/components/welcome-line").then((m) => m.WelcomeLine));

export default function HomeRoute() {
  const { state } = useLocation();
  const welcome = isWelcome(state) || hasPendingWelcome();
  return (
    <>
      {welcome && <WelcomeLine load />}
      <BrowsePage />
    </>
  );
}
