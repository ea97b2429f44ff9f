import { useEffect, useRef } from "react";
import { useSearchParams } from "react-router-dom";
import { messagingRefusalOnScreen } from "@contract/messaging-rules";
import { PageFrame } from "../../../components/layout/page-frame";
import { PageLoadingInline } from "../../../components/ui/spinner";
import { useSession } from "../../../lib/session";
import { startConversationError, useStartConversation } from "../api/messages-mutations";
import { useConversations, useInboxUnreadSync } from "../api/messages-queries";
import { listConversations } from "../lib/thread";
import { ConversationList } from "./conversation-list";
import { isNarrow, Thread, type ThreadDeals } from "./thread";

/**
 * /messages: the conversation list and the open conversation (side by side on desktop, two views with a
 * Back button on a phone). `?conversation=` selects a conversation; `?userId=` (and `&listingId=`)
 * opens the conversation with that user, creating it if needed.
 */
export function MessagesPage({ deals }: { deals?: ThreadDeals }) {
  const { session } = useSession();
  const user = session!.user;
  const [params, setParams] = useSearchParams();
  const selectedId = params.get("conversation");
  const userId = params.get("userId");
  const listingId = params.get("listingId");

  const conversationsQuery = useConversations();
  const conversations = listConversations(conversationsQuery.data);
  useInboxUnreadSync();

  const start = useStartConversation();
  const { mutate: startConversation } = start;
  // Only writing to oneself can be refused here: the server judges the rest when it starts the conversation.
  const refusal = userId ? messagingRefusalOnScreen(user, userId) : null;
  const self = !!refusal;
  const started = useRef<string | null>(null);
  useEffect(() => {
    if (!userId || self) {
      started.current = null;
      return;
    }
    const key = `${userId}|${listingId ?? ""}`;
    if (started.current === key) return;
    started.current = key;
    startConversation(
      { userId, listingId },
      { onSuccess: (c) => setParams({ conversation: c.id }, { replace: true }) },
    );
  }, [userId, listingId, self, startConversation, setParams]);

  const startError = refusal ? refusal.detail : start.isError ? startConversationError(start.error, !!listingId) : null;
  const selected = selectedId ? (conversations.find((c) => c.id === selectedId) ?? (start.data?.id === selectedId ? start.data : null)) : null;
  const showThread = !!selectedId || !!userId;

  // On a phone the list and the thread are two views: Back returns focus to the list's heading.
  const listTitle = useRef<HTMLHeadingElement>(null);
  const back = () => {
    setParams({});
    if (isNarrow()) requestAnimationFrame(() => listTitle.current?.focus());
  };

  return (
    <PageFrame title="Messages">
      <div className={`messages-layout${showThread ? " messages-layout-thread" : ""}`}>
        <section className="messages-list-pane panel" aria-labelledby="conversations-title">
          <h2 id="conversations-title" className="messages-pane-title" ref={listTitle} tabIndex={-1}>
            Conversations
          </h2>
          <ConversationList
            conversations={conversations}
            selectedId={selectedId}
            onSelect={(id) => setParams({ conversation: id })}
            status={conversationsQuery.isPending ? "pending" : conversationsQuery.isError && conversations.length === 0 ? "error" : "success"}
            onRetry={() => void conversationsQuery.refetch()}
            hasMore={!!conversationsQuery.hasNextPage}
            loadingMore={conversationsQuery.isFetchingNextPage}
            onLoadMore={() => void conversationsQuery.fetchNextPage()}
          />
        </section>
        <div className="messages-thread-pane panel">
          {startError ? (
            <div className="messages-state" role="alert">
              <p>{startError}</p>
              <button type="button" className="button button-ghost" onClick={back}>
                Back to conversations
              </button>
            </div>
          ) : selectedId ? (
            <Thread key={selectedId} conversationId={selectedId} conversation={selected} me={user.id} onBack={back} deals={deals} />
          ) : userId ? (
            <PageLoadingInline label="Opening conversation" />
          ) : (
            <div className="messages-state messages-placeholder">
              <p className="muted">Select a conversation to read and reply.</p>
            </div>
          )}
        </div>
      </div>
    </PageFrame>
  );
}
