import { BrowsePage } from "../../features/browse/components/browse-page";

export default function HomeRoute() {
  return <BrowsePage />;
}
