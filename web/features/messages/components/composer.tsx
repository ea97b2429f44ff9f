import { useId, useState, type KeyboardEvent } from "react";
import { LIMITS } from "@contract/limits";
import { MESSAGING_MESSAGES, messageTextSchema } from "@contract/messages";

/** The counter shows from this many characters on. */
const COUNTER_FROM = LIMITS.messageMax - 200;

/**
 * The message box: Enter sends, Shift+Enter makes a new line; trimmed text must be non-empty. Nothing
 * is ever cut: a counter shows near the limit, and a text over it (a long paste) stays
 * in the box, flagged, with Send disabled until it is shortened.
 */
export function Composer({ onSend, recipient }: { onSend: (text: string) => void; recipient: string }) {
  const id = useId();
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const over = text.length > LIMITS.messageMax;
  const canSend = text.trim().length > 0 && !over;

  const submit = () => {
    if (!canSend) return;
    const parsed = messageTextSchema.safeParse(text);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setError(null);
    onSend(parsed.data);
    setText("");
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };

  const counterId = `${id}-counter`;
  const hintId = `${id}-hint`;
  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        {`Message to ${recipient}`}
      </label>
      <textarea
        id={id}
        className="composer-input"
        rows={2}
        value={text}
        placeholder="Write a message…"
        aria-describedby={`${hintId}${text.length >= COUNTER_FROM ? ` ${counterId}` : ""}${error || over ? ` ${id}-error` : ""}`}
        aria-invalid={error || over ? true : undefined}
        onChange={(e) => {
          setText(e.target.value);
          if (error) setError(null);
        }}
        onKeyDown={onKeyDown}
      />
      <button type="submit" className="button button-primary composer-send" disabled={!canSend}>
        Send
      </button>
      <div className="composer-meta">
        <span id={hintId} className="composer-hint">
          Enter to send, Shift+Enter for a new line
        </span>
        {text.length >= COUNTER_FROM && (
          <span id={counterId} className={`composer-counter${text.length >= LIMITS.messageMax ? " composer-counter-full" : ""}`}>
            {`${text.length}/${LIMITS.messageMax}`}
            {over && <span className="visually-hidden">{` characters, ${text.length - LIMITS.messageMax} over the limit`}</span>}
          </span>
        )}
      </div>
      {(error || over) && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {over ? `${MESSAGING_MESSAGES.tooLong}. Shorten it to send.` : error}
        </p>
      )}
    </form>
  );
}
