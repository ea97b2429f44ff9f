import { Link } from "react-router-dom";
import type { Conversation } from "@contract/messages";
import { MESSAGING_MESSAGES } from "@contract/messages";
import { Avatar } from "../../../components/ui/avatar";
import { PageLoadingInline } from "../../../components/ui/spinner";
import { paths } from "../../../config/paths";
import { listTimeLabel } from "../lib/thread";

export const splitName = (name: string) => {
  const [first = "", ...rest] = name.trim().split(/\s+/);
  return { firstName: first, lastName: rest.join(" ") };
};

interface ConversationListProps {
  conversations: Conversation[];
  selectedId: string | null;
  onSelect: (id: string) => void;
  status: "pending" | "error" | "success";
  onRetry: () => void;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
}

/** The conversation list: avatar, name, listing, preview, time and unread count; each button opens its thread. */
export function ConversationList({ conversations, selectedId, onSelect, status, onRetry, hasMore, loadingMore, onLoadMore }: ConversationListProps) {
  if (status === "pending") return <PageLoadingInline label="Loading conversations" />;
  if (status === "error")
    return (
      <div className="messages-state" role="alert">
        <p>{MESSAGING_MESSAGES.loadConversationsFailed}</p>
        <button type="button" className="button button-primary" onClick={onRetry}>
          Try again
        </button>
      </div>
    );
  if (conversations.length === 0)
    return (
      <div className="messages-state">
        <p className="messages-state-title">No conversations yet</p>
        <p className="muted">Message a listing owner from their listing to start one.</p>
        <Link to={paths.home} className="button button-primary">
          Browse Listings
        </Link>
      </div>
    );
  return (
    <>
      <ul className="conversation-list">
        {conversations.map((c) => {
          const selected = c.id === selectedId;
          const time = listTimeLabel(c.last_message_timestamp ?? c.updated_at);
          return (
            <li key={c.id}>
              <button
                type="button"
                onClick={() => onSelect(c.id)}
                className={`conversation-item${selected ? " conversation-item-active" : ""}${c.unread_count > 0 ? " conversation-item-unread" : ""}`}
                aria-current={selected ? "true" : undefined}
              >
                <Avatar src={c.participant_avatar} {...splitName(c.participant_name)} size={44} />
                <span className="conversation-body">
                  <span className="conversation-top">
                    <span className="conversation-name">{c.participant_name}</span>
                    {time && (
                      <time className="conversation-time" dateTime={c.last_message_timestamp ?? c.updated_at}>
                        {time}
                      </time>
                    )}
                  </span>
                  {c.listing_title && <span className="conversation-listing">{c.listing_title}</span>}
                  <span className="conversation-preview">{c.latest_message_preview ?? "No messages yet"}</span>
                </span>
                {c.unread_count > 0 && (
                  <span className="unread-pill">
                    <span aria-hidden="true">{c.unread_count > 99 ? "99+" : c.unread_count}</span>
                    <span className="visually-hidden">{`${c.unread_count} unread`}</span>
                  </span>
                )}
              </button>
            </li>
          );
        })}
      </ul>
      {hasMore && (
        <div className="load-more">
          <button type="button" className="button button-ghost" onClick={onLoadMore} disabled={loadingMore}>
            {loadingMore ? "Loading…" : "Load more conversations"}
          </button>
        </div>
      )}
    </>
  );
}
