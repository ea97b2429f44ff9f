import { MessagesPage } from "../../features/messages/components/messages-page";
import { RequireSignedIn } from "../guards";

export default function MessagesRoute() {
  return (
    <RequireSignedIn>
      <MessagesPage />
    </RequireSignedIn>
  );
}
