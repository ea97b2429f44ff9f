import { DealCard } from "../../features/deals/components/deal-card";
import { ThreadRequestDeal } from "../../features/deals/components/thread-request";
import { MessagesPage } from "../../features/messages/components/messages-page";
import type { ThreadDeals } from "../../features/messages/components/thread";
import { RequireSignedIn } from "../guards";

/** The deal parts of a thread (the messages feature renders them where they belong). */
const deals: ThreadDeals = {
  card: (props) => <DealCard {...props} />,
  request: (props) => <ThreadRequestDeal {...props} />,
};

export default function MessagesRoute() {
  return (
    <RequireSignedIn visitorMessage="Please log in to send messages">
      <MessagesPage deals={deals} />
    </RequireSignedIn>
  );
}
