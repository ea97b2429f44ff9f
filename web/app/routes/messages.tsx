import { MessagesPage } from "../../features/messages/components/messages-page";
import { RequireSignedIn } from "../guards";

export default function MessagesRoute() {
  return (
    <RequireSignedIn visitorMessage="Please log in to send messages">
      <MessagesPage />
    </RequireSignedIn>
  );
}
