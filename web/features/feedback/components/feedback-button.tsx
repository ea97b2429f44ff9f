/**
 * The Feedback button on every public page, docked in the footer's bottom band at the right, where it
 * covers nothing (floating, it hid card content at 1280 px): a pill on wider
 * screens, an icon button on phones. It is in the page's first load; the form it
 * opens is not (app-layout.tsx, docs/decisions/023).
 */
export function FeedbackButton({ onOpen, onIntent }: { onOpen: () => void; onIntent: () => void }) {
  return (
    <button type="button" className="feedback-fab" onClick={onOpen} onPointerEnter={onIntent} onFocus={onIntent} onTouchStart={onIntent}>
      <svg className="feedback-fab-icon" width="20" height="20" viewBox="0 0 24 24" aria-hidden="true">
        <path d="M4 5h16v11H9l-5 4z" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
      </svg>
      <span className="feedback-fab-label">Feedback</span>
    </button>
  );
}
