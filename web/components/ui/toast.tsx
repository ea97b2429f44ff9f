import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { TIMINGS } from "@contract/constants";

/**
 * Toasts: short messages in a polite live region (errors are assertive). Default 2 s; any
 * duration is kept within the product's 2-5 s range (docs/product-rules.md "Timings and sizes").
 */
type ToastKind = "info" | "success" | "error";
/** A link after the message ("Search saved · See saved searches"); onClick lets the caller navigate in the app. */
interface ToastAction {
  label: string;
  href: string;
  onClick?: () => void;
}
interface Toast {
  id: number;
  message: string;
  kind: ToastKind;
  action?: ToastAction;
}
interface ToastValue {
  /** Shows a toast and returns its id (for dismiss). */
  show: (message: string, options?: { kind?: ToastKind; durationMs?: number; action?: ToastAction }) => number;
  /** Takes a toast away early (a "Please log in to …" prompt once the sign-in succeeded). */
  dismiss: (id: number) => void;
}

const ToastContext = createContext<ToastValue | null>(null);

export const clampToastDuration = (ms: number) => Math.min(5000, Math.max(2000, ms));

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  // Each toast's timer, cleared when the provider goes away: a timer that outlived it would set state
  // on an unmounted tree (in tests, after the page itself was torn down).
  const timers = useRef(new Set<number>());
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending) window.clearTimeout(timer);
      pending.clear();
    };
  }, []);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const show = useCallback<ToastValue["show"]>(
    (message, options = {}) => {
      const id = nextId.current++;
      setToasts((all) => [...all, { id, message, kind: options.kind ?? "info", action: options.action }]);
      const timer = window.setTimeout(() => {
        timers.current.delete(timer);
        dismiss(id);
      }, clampToastDuration(options.durationMs ?? TIMINGS.toastDefaultMs));
      timers.current.add(timer);
      return id;
    },
    [dismiss],
  );
  const value = useMemo(() => ({ show, dismiss }), [show, dismiss]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts
          .filter((t) => t.kind !== "error")
          .map((t) => (
            <div key={t.id} className={`toast toast-${t.kind}`}>
              <span>{t.message}</span>
              {t.action && (
                <a
                  className="toast-action"
                  href={t.action.href}
                  onClick={(event) => {
                    if (!t.action?.onClick) return;
                    event.preventDefault();
                    t.action.onClick();
                    dismiss(t.id);
                  }}
                >
                  {t.action.label}
                </a>
              )}
              <button type="button" className="toast-close" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
                ×
              </button>
            </div>
          ))}
      </div>
      <div className="toasts toasts-errors" role="alert" aria-live="assertive">
        {toasts
          .filter((t) => t.kind === "error")
          .map((t) => (
            <div key={t.id} className="toast toast-error">
              <span>{t.message}</span>
              <button type="button" className="toast-close" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
                ×
              </button>
            </div>
          ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastValue {
  const value = useContext(ToastContext);
  if (!value) throw new Error("useToast outside ToastProvider");
  return value;
}
