import { UnsubscribePage } from "../../features/saved-searches/components/unsubscribe-page";

export default function UnsubscribeRoute() {
  return <UnsubscribePage />;
}
