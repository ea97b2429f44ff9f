import { FavoritesPage } from "../../features/favorites/components/favorites-page";
import { RequireSignedIn } from "../guards";

export default function FavoritesRoute() {
  return (
    <RequireSignedIn redirectVisitorsHome>
      <FavoritesPage />
    </RequireSignedIn>
  );
}
