import { WelcomeLine } from "../../features/auth/components/welcome-line";
import { BrowsePage } from "../../features/browse/components/browse-page";

export default function HomeRoute() {
  return (
    <>
      <WelcomeLine />
      <BrowsePage />
    </>
  );
}
