import { Fragment, useEffect, useLayoutEffect, useRef, type ReactNode } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import { MOBILE_BREAKPOINT_PX } from "@contract/constants";
import type { Conversation, Message } from "@contract/messages";
import { MESSAGING_MESSAGES } from "@contract/messages";
import { REPORT_TEXTS } from "@contract/reports";
import { Avatar } from "../../../components/ui/avatar";
import { PageLoadingInline } from "../../../components/ui/spinner";
import { pollInterval, useIdle } from "../../../lib/activity";
import { paths } from "../../../config/paths";
import { useMarkRead, useSafetyFeedback, useSendMessage, type PendingMessage } from "../api/messages-mutations";
import { isGoneError, useConversationDetail, useMessages, useParticipant, useThreadSocket } from "../api/messages-queries";
import { TrustChecks } from "../../../components/ui/trust-checks";
import { PersonReviewSummaries } from "../../../components/ui/reviews";
import { messageKeys } from "../api/messages-api";
import { dayKey, dayLabel, noticeKindOf, threadMessages, timeLabel } from "../lib/thread";
import { Composer } from "./composer";
import { SafetyConfirmation, SafetyNotice, SafetyTip } from "./scam-notice";
import { ThreadSafetyActions, UnblockBar } from "./safety-actions";
import { splitName } from "./conversation-list";

/**
 * The deal parts a thread shows, given by the route (features never import each other): a request's
 * card in place of its message, and "Request to sublease" for the conversation's listing.
 */
export interface ThreadDeals {
  /** `pollMs`: the thread's own poll interval (false while the room is open and pushes `deal` events). */
  card: (props: { dealId: string; me: string; pollMs: number | false }) => ReactNode;
  request: (props: { listingId: string; me: string; onSent: () => void }) => ReactNode;
}

interface ThreadProps {
  deals?: ThreadDeals | undefined;
  conversationId: string;
  /** From the list (or the start call); null while unknown. */
  conversation: Conversation | null;
  me: string;
  onBack: () => void;
}

/** Below the desktop breakpoint the list and the thread are two views (styles.css). */
export const isNarrow = () => window.matchMedia?.(`(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`).matches ?? false;

/** Scrolling within this distance of the top loads older messages. */
const LOAD_OLDER_AT_PX = 48;

/** The keys that scroll a focused log. */
const SCROLL_KEYS = new Set(["ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", " "]);

/** Scrolls the log to its end and notes where it put it (see `pinnedTop`); a scroll after it is ours until the reader acts. */
function toBottom(el: HTMLDivElement, pinnedTop: { current: number | null }, readerScrolling: { current: boolean }) {
  el.scrollTop = el.scrollHeight;
  pinnedTop.current = el.scrollTop;
  readerScrolling.current = false;
}

/** One open conversation: header with the listing, the log of messages, and the composer. */
export function Thread({ conversationId, conversation: listed, me, onBack, deals }: ThreadProps) {
  // The list's copy when it has one; else (a reload, a link, someone I blocked) the conversation read by id.
  const detail = useConversationDetail(conversationId);
  const conversation = listed ?? detail.data?.data ?? null;
  const reply = detail.data?.reply ?? "open";
  // The room opens once the thread has loaded: a conversation that is gone (404) gets no socket.
  const loadedBefore = useQueryClient().getQueryState(messageKeys.thread(conversationId))?.status === "success";
  const connected = useThreadSocket(loadedBefore ? conversationId : null, me);
  const query = useMessages(conversationId, connected);
  const dealPoll = pollInterval("conversation", { connected, idle: useIdle() });
  const gone = isGoneError(query.error);
  const messages = threadMessages(query.data);
  const { pending, send, retry, discard, blocked: refused } = useSendMessage(conversationId, me, messages);
  // The other person cannot be written to (they blocked me, or left): said without the reason.
  const blocked = refused || reply === "closed";
  const iBlocked = reply === "you_blocked";
  const { mutate: markRead } = useMarkRead(me);
  const safety = useSafetyFeedback(conversationId);
  const name = conversation?.participant_name ?? "Conversation";

  // Opening marks the conversation read; so does every unread message from the other person that arrives.
  const loaded = query.isSuccess;
  const lastUnreadIncoming = messages.findLast((m) => m.sender_id !== me && !m.is_read)?.id ?? null;
  const markedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!loaded) return;
    if (markedFor.current === conversationId && !lastUnreadIncoming) return;
    markedFor.current = conversationId;
    markRead(conversationId);
  }, [loaded, conversationId, lastUnreadIncoming, markRead]);

  // Scroll: to the bottom on open and on a new message (if the reader is near the bottom or sent it);
  // keep the position when older messages are added on top.
  const logRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  // Where we last put the log ourselves. Its scroll event arrives a frame later; if a deal card grew in
  // between, the log is then far from the bottom though nobody scrolled, and reading that as the reader
  // leaving the bottom (which happened on slow phones) left the conversation open on an old card.
  const pinnedTop = useRef<number | null>(null);
  // Whether the reader has scrolled (wheel, touch, a scroll key, the scrollbar) since we last put the log
  // at its end. Only their scroll may unstick it: the browser's scroll anchoring also scrolls the log
  // when a card above the fold grows, and read as the reader, that left a busy phone on an old card.
  const readerScrolling = useRef(false);
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const firstId = messages[0]?.id;
  const last = messages.at(-1);
  const bottomKey = `${last?.id ?? ""}:${pending.length}`;
  useLayoutEffect(() => {
    const el = logRef.current;
    if (!el || !anchor.current) return;
    el.scrollTop = anchor.current.top + (el.scrollHeight - anchor.current.height);
    anchor.current = null;
  }, [firstId]);
  useLayoutEffect(() => {
    const el = logRef.current;
    if (el && (stick.current || pending.length > 0 || last?.sender_id === me)) toBottom(el, pinnedTop, readerScrolling);
  }, [bottomKey, last?.sender_id, me, pending.length]);
  const myLast = messages.findLast((m) => m.sender_id === me);
  const seenId = myLast?.is_read ? myLast.id : null;
  // A notice that appears, changes or gives way to the thanks (or its error), or "Seen" under my last
  // message, changes the height under the messages: a reader at the bottom stays there, so the newest
  // message and what is under it are never cut off.
  const noticesKey = `${messages.map((m) => (m.sender_id === me ? "" : (noticeKindOf(m) ?? ""))).join()}|${safety.confirmed?.messageId ?? ""}|${safety.failedFor ?? ""}|${safety.undoFailed}|${seenId ?? ""}`;
  useLayoutEffect(() => {
    const el = logRef.current;
    if (el && stick.current) toBottom(el, pinnedTop, readerScrolling);
  }, [noticesKey]);
  // The log gets shorter (a phone's keyboard or browser bar, a rotation), or what it holds grows after it
  // was drawn (a deal card loads its deal after the messages, a photo, a notice): a reader at the bottom
  // stays there, so a conversation opens on its newest message, never on a card loaded late above it.
  const contentRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = logRef.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (stick.current) toBottom(el, pinnedTop, readerScrolling);
    });
    observer.observe(el);
    if (contentRef.current) observer.observe(contentRef.current);
    return () => observer.disconnect();
  }, []);

  const loadOlder = () => {
    const el = logRef.current;
    if (!query.hasNextPage || query.isFetchingNextPage) return;
    if (el) anchor.current = { height: el.scrollHeight, top: el.scrollTop };
    void query.fetchNextPage();
  };

  // On a phone the list view was just replaced by this one: move focus to its heading.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (isNarrow()) heading.current?.focus();
  }, []);

  const participant = useParticipant(conversation && conversation.participant_name !== "Deleted user" ? conversation.participant_id : undefined);

  return (
    <section className="thread" aria-labelledby="thread-title">
      <header className="thread-header">
        <button type="button" className="button button-ghost thread-back" onClick={onBack} aria-label="Back to conversations">
          <span aria-hidden="true">←</span>
          <span className="thread-back-text" aria-hidden="true">
            {" "}
            Back
          </span>
        </button>
        {conversation && <Avatar src={conversation.participant_avatar} {...splitName(conversation.participant_name)} size={40} />}
        <div className="thread-heading">
          <h2 id="thread-title" ref={heading} tabIndex={-1}>
            {name}
          </h2>
          <TrustChecks user={participant.data} compact />
          <PersonReviewSummaries user={participant.data} />
          {conversation?.listing_id && (
            <Link to={paths.listing(conversation.listing_id, `/messages?conversation=${encodeURIComponent(conversationId)}`)} className="thread-listing">
              {conversation.listing_photo && <img src={conversation.listing_photo} alt="" width={40} height={30} />}
              <span>{conversation.listing_title ?? "View listing"}</span>
            </Link>
          )}
        </div>
        {conversation && conversation.participant_name !== "Deleted user" && (
          <ThreadSafetyActions userId={conversation.participant_id} name={name} conversationId={conversationId} onBlocked={onBack} blocked={iBlocked} />
        )}
      </header>
      {deals && conversation?.listing_id && !gone && !blocked && !iBlocked && (
        <div className="thread-deal-bar">{deals.request({ listingId: conversation.listing_id, me, onSent: () => void query.refetch() })}</div>
      )}

      <div
        ref={logRef}
        className="thread-log"
        role="log"
        aria-live="polite"
        aria-label={`Messages with ${name}`}
        tabIndex={0}
        onWheel={() => (readerScrolling.current = true)}
        onTouchMove={() => (readerScrolling.current = true)}
        onKeyDown={(e) => {
          if (SCROLL_KEYS.has(e.key)) readerScrolling.current = true;
        }}
        onPointerDown={(e) => {
          // On the log itself, not on a message: its scrollbar.
          if (e.target === e.currentTarget) readerScrolling.current = true;
        }}
        onScroll={(e) => {
          const el = e.currentTarget;
          // Not the reader's doing (our own move, the content growing since, the browser's scroll anchoring):
          // the reader is still where we put them.
          if (!readerScrolling.current) return;
          if (pinnedTop.current !== null && Math.abs(el.scrollTop - pinnedTop.current) < 1) return;
          pinnedTop.current = null;
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
          if (el.scrollTop < LOAD_OLDER_AT_PX) loadOlder();
        }}
      >
        <div ref={contentRef} className="thread-log-content">
          {query.isPending ? (
            <PageLoadingInline label="Loading messages" />
          ) : gone ? (
            <div className="messages-state" role="alert">
              <p>This conversation is no longer available.</p>
            </div>
          ) : query.isError && messages.length === 0 ? (
            <div className="messages-state" role="alert">
              <p>{MESSAGING_MESSAGES.loadMessagesFailed}</p>
              <button type="button" className="button button-primary" onClick={() => void query.refetch()}>
                Try again
              </button>
            </div>
          ) : (
            <>
              {query.hasNextPage && (
                <div className="thread-older">
                  <button type="button" className="link-button" onClick={loadOlder} disabled={query.isFetchingNextPage}>
                    {query.isFetchingNextPage ? "Loading older messages…" : "Load older messages"}
                  </button>
                </div>
              )}
              {!query.hasNextPage && <SafetyTip />}
              {messages.length === 0 && pending.length === 0 && <p className="thread-empty muted">No messages yet. Say hello!</p>}
              <MessageList messages={messages} me={me} name={name} seenId={seenId} safety={safety} deals={deals} pollMs={dealPoll} />
              {pending.map((p) => (
                <PendingBubble key={p.key} message={p} onRetry={() => retry(p)} onDiscard={() => discard(p.key)} />
              ))}
            </>
          )}
        </div>
      </div>

      {!gone &&
        (iBlocked && conversation ? (
          <UnblockBar userId={conversation.participant_id} name={name} />
        ) : blocked ? (
          <p className="thread-blocked" role="alert">
            {REPORT_TEXTS.blockedSend}
          </p>
        ) : (
          <Composer onSend={send} recipient={name} />
        ))}
    </section>
  );
}

interface MessageListProps {
  messages: Message[];
  me: string;
  name: string;
  seenId: string | null;
  safety: ReturnType<typeof useSafetyFeedback>;
  deals: ThreadDeals | undefined;
  pollMs: number | false;
}

function MessageList({ messages, me, name, seenId, safety, deals, pollMs }: MessageListProps) {
  return (
    <>
      {messages.map((m, i) => {
        const mine = m.sender_id === me;
        const newDay = i === 0 || dayKey(messages[i - 1]!.timestamp) !== dayKey(m.timestamp);
        return (
          <Fragment key={m.id}>
            {newDay && (
              <p className="date-separator">
                <span>{dayLabel(m.timestamp)}</span>
              </p>
            )}
            {m.kind === "deal" && m.deal_id && deals ? (
              // A request to sublease: its card, never a safety notice (the shield does not score it).
              <div className={`bubble-row deal-row${mine ? " bubble-row-mine" : ""}`}>
                {deals.card({ dealId: m.deal_id, me, pollMs })}
                <span className="bubble-meta">
                  <time dateTime={m.timestamp}>{timeLabel(m.timestamp)}</time>
                </span>
              </div>
            ) : (
            <div className={`bubble-row${mine ? " bubble-row-mine" : ""}`}>
              <div className="bubble">
                <span className="visually-hidden">{mine ? "You: " : `${name}: `}</span>
                <span className="bubble-text">{m.text}</span>
              </div>
              <span className="bubble-meta">
                <time dateTime={m.timestamp}>{timeLabel(m.timestamp)}</time>
              </span>
              {m.id === seenId && <span className="bubble-seen">Seen</span>}
              {!mine && safety.confirmed?.messageId === m.id && <SafetyConfirmation kind={safety.confirmed.kind} onUndo={safety.undo} busy={safety.busy} failed={safety.undoFailed} />}
              {!mine && noticeKindOf(m) && (
                <SafetyNotice kind={noticeKindOf(m)!} messageId={m.id} onFine={() => safety.quiet(m.id, noticeKindOf(m)!)} busy={safety.busy} failed={safety.failedFor === m.id} focus={safety.refocus === m.id} onFocused={safety.refocused} payInside={m.safety_pay_inside} />
              )}
            </div>
            )}
          </Fragment>
        );
      })}
    </>
  );
}

function PendingBubble({ message, onRetry, onDiscard }: { message: PendingMessage; onRetry: () => void; onDiscard: () => void }) {
  const failed = message.status === "failed";
  return (
    <div className={`bubble-row bubble-row-mine${failed ? " bubble-row-failed" : " bubble-row-sending"}`}>
      <div className="bubble">
        <span className="visually-hidden">You: </span>
        <span className="bubble-text">{message.text}</span>
      </div>
      {failed ? (
        <span className="bubble-meta bubble-error" role="alert">
          {MESSAGING_MESSAGES.sendFailed}{" "}
          <button type="button" className="link-button" onClick={onRetry}>
            Retry
          </button>{" "}
          <button type="button" className="link-button" onClick={onDiscard} aria-label="Discard unsent message">
            Discard
          </button>
        </span>
      ) : (
        <span className="bubble-meta">Sending…</span>
      )}
    </div>
  );
}
