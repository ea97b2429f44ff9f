import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from "react";

/**
 * Text limits: never cut silently. A limited field has no hard maxLength, so a paste
 * that is too long stays in the box; it counts from 80 % of the limit and, over it, says so until
 * shortened (the form refuses to submit meanwhile: see `isOverLimit`).
 */
export interface LimitProps {
  /** The most characters the field accepts. */
  limit?: number;
  /** How the limit message names the field (default: the label without a trailing "(optional)"). */
  limitLabel?: string;
}

/** True when a limited value is too long (forms refuse to submit meanwhile). */
export const isOverLimit = (value: unknown, limit: number) => typeof value === "string" && value.length > limit;

/** "Title is 68 characters; the limit is 35. Shorten it to continue." */
export const limitMessage = (name: string, length: number, limit: number) =>
  `${name} is ${length} characters; the limit is ${limit}. Shorten it to continue.`;

const COUNTER_FROM = 0.8;

/** The limit's state for a value of this length: counted from 80 %, the message once over. */
export function limitState(name: string, length: number, limit: number) {
  const over = length > limit;
  return { over, counted: length >= Math.ceil(limit * COUNTER_FROM), message: over ? limitMessage(name, length, limit) : null };
}

/** "30/35" from 80 % of the limit; always in the page, so the polite announcements start with the first count. */
export function FieldCounter({ id, length, limit }: { id?: string; length: number; limit: number }) {
  const { over, counted } = limitState("", length, limit);
  return (
    <p id={id} className={`field-hint field-counter counter${over ? " over" : counted ? " warn" : ""}`} aria-live="polite">
      {counted && (
        <>
          {length}/{limit}
          <span className="visually-hidden"> characters</span>
        </>
      )}
    </p>
  );
}

interface FieldShellProps extends LimitProps {
  label: string;
  error?: string | null;
  hint?: ReactNode;
  /** The value's length, for a limited field. */
  length?: number;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}

/** Label, control, hint, counter and error, wired for screen readers (aria-describedby, aria-invalid). */
function FieldShell({ label, error: givenError, hint, limit, limitLabel, length = 0, children }: FieldShellProps) {
  const id = useId();
  const state = limit !== undefined ? limitState(limitLabel ?? label.replace(/\s*\(optional\)$/i, ""), length, limit) : null;
  // Too long says how to fix it, before any other message about the value.
  const error = state?.message ?? givenError;
  const counted = !!state?.counted;
  const hintId = hint ? `${id}-hint` : undefined;
  const counterId = limit !== undefined ? `${id}-counter` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, counted ? counterId : undefined, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children({ id, describedBy, invalid: !!error })}
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      {limit !== undefined && <FieldCounter id={counterId} length={length} limit={limit} />}
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

const lengthOf = (value: unknown) => (typeof value === "string" ? value.length : 0);

type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & LimitProps & { label: string; error?: string | null; hint?: ReactNode };

export function TextField({ label, error, hint, limit, limitLabel, ...input }: TextFieldProps) {
  return (
    <FieldShell label={label} error={error} hint={hint} limit={limit} limitLabel={limitLabel} length={lengthOf(input.value)}>
      {({ id, describedBy, invalid }) => (
        <input id={id} aria-describedby={describedBy} aria-invalid={invalid || undefined} {...input} />
      )}
    </FieldShell>
  );
}

type SelectFieldProps = SelectHTMLAttributes<HTMLSelectElement> & { label: string; error?: string | null; hint?: ReactNode };

export function SelectField({ label, error, hint, children, ...select }: SelectFieldProps) {
  return (
    <FieldShell label={label} error={error} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <select id={id} aria-describedby={describedBy} aria-invalid={invalid || undefined} {...select}>
          {children}
        </select>
      )}
    </FieldShell>
  );
}

type TextAreaFieldProps = TextareaHTMLAttributes<HTMLTextAreaElement> & LimitProps & { label: string; error?: string | null; hint?: ReactNode };

export function TextAreaField({ label, error, hint, limit, limitLabel, ...textarea }: TextAreaFieldProps) {
  return (
    <FieldShell label={label} error={error} hint={hint} limit={limit} limitLabel={limitLabel} length={lengthOf(textarea.value)}>
      {({ id, describedBy, invalid }) => (
        <textarea id={id} aria-describedby={describedBy} aria-invalid={invalid || undefined} {...textarea} />
      )}
    </FieldShell>
  );
}

/** A form-level error (from the server's detail), announced when it appears. */
export function FormError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <div className="form-error" role="alert">
      {message}
    </div>
  );
}
