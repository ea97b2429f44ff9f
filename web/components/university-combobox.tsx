import { useId, useState } from "react";
import type { University } from "@contract/api";
import { useUniversities, useUniversityShortName } from "../lib/universities";

const MAX_SHOWN = 8;

/** Universities whose short or full name contains every word typed, short-name matches first. */
export function matchUniversities(universities: University[], text: string): University[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return universities.slice(0, MAX_SHOWN);
  const matches = universities.filter((u) => {
    const haystack = `${u.abbreviation} ${u.name}`.toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
  const startsShort = (u: University) => (u.abbreviation.toLowerCase().startsWith(words[0]!) ? 0 : 1);
  return matches.sort((a, b) => startsShort(a) - startsShort(b)).slice(0, MAX_SHOWN);
}

interface UniversityComboboxProps {
  value: string | null;
  onChange: (id: string | null) => void;
  label?: string;
  /** The placeholder while nothing is chosen. */
  placeholder: string;
  /** The first option, choosing no university ("All universities"); none for a field that needs one. */
  emptyOption?: string;
  /** The input's name in a form that works without JavaScript (browse: `campus`). */
  name?: string;
  error?: string | null;
  required?: boolean;
  className?: string;
  /** Load the list on first focus (browse: the first screen carries none of it), not at once. */
  loadOnFocus?: boolean;
}

/**
 * The one university picker (browse, sign-up, profile, the listing form): a searchable list (WAI-ARIA
 * combobox) instead of a select of every university (docs/decisions/023). The chosen one shows by its
 * short name while the list loads (the server render embeds it). Without JavaScript browse's field is a
 * text field named `campus`: the worker turns "UF" or "Florida" into the university's id (worker/routes/pages.ts).
 */
export function UniversityCombobox({ value, onChange, label = "University", placeholder, emptyOption, name, error, required, className = "field combobox", loadOnFocus = false }: UniversityComboboxProps) {
  const id = useId();
  const listId = `${id}-list`;
  // Focused once: the full list loads (and stays for the hour); open: the list shows while focused.
  const [opened, setOpened] = useState(!loadOnFocus);
  const [open, setOpen] = useState(false);
  const [text, setText] = useState<string | null>(null);
  const [active, setActive] = useState(-1);
  const shortName = useUniversityShortName(value);
  const universities = useUniversities({ enabled: opened });
  const full = value ? universities.data?.find((u) => String(u.id) === value) : undefined;
  const chosenLabel = full ? `${full.abbreviation} · ${full.name}` : (shortName.data?.abbreviation ?? "");
  const shown = open && universities.data ? matchUniversities(universities.data, text ?? "") : [];
  // The empty choice first, then the matches; once something is typed, the matches alone (so
  // ArrowDown and Enter reach the first match, not the empty choice).
  const typed = !!text?.trim();
  const options: { id: string | null; label: string }[] =
    open && universities.data ? [...(typed || !emptyOption ? [] : [{ id: null, label: emptyOption }]), ...shown.map((u) => ({ id: String(u.id), label: `${u.abbreviation} · ${u.name}` }))] : [];
  const showList = options.length > 0;
  const errorText = error ?? null;

  function close() {
    setOpen(false);
    setText(null);
    setActive(-1);
  }
  function pick(choice: string | null) {
    close();
    if (choice !== value) onChange(choice);
  }

  return (
    <div className={className}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="text"
        role="combobox"
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showList && active >= 0 ? `${listId}-${active}` : undefined}
        aria-describedby={errorText ? `${id}-hint ${id}-error` : `${id}-hint`}
        aria-invalid={errorText ? true : undefined}
        aria-required={required || undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        value={text ?? chosenLabel}
        onFocus={(e) => {
          setOpened(true);
          setOpen(true);
          e.currentTarget.select();
        }}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onBlur={() => {
          // Emptied and left: every university; anything else typed and not picked is dropped.
          if (text !== null && text.trim() === "") pick(null);
          else close();
        }}
        onKeyDown={(e) => {
          if (e.key === "Escape" && open) close();
          else if (e.key === "ArrowDown" && !open) setOpen(true);
          else if (!showList) return;
          else if (e.key === "ArrowDown") setActive((i) => Math.min(options.length - 1, i + 1));
          else if (e.key === "ArrowUp") setActive((i) => Math.max(0, i - 1));
          // Enter picks the highlighted one, or the first match of what was typed.
          else if (e.key === "Enter" && (active >= 0 || (typed && shown.length > 0))) pick(options[Math.max(active, 0)]!.id);
          else return;
          e.preventDefault();
        }}
      />
      <span id={`${id}-hint`} className="visually-hidden">
        {universities.isPending && opened ? "Loading universities" : "Type a university's name or short name"}
      </span>
      {errorText && (
        <span className="field-error" id={`${id}-error`}>
          {errorText}
        </span>
      )}
      {opened && universities.isError && (
        <span className="field-error" role="alert">
          Failed to load universities{" "}
          <button type="button" className="link-button" onClick={() => universities.refetch()}>
            Try again
          </button>
        </span>
      )}
      {showList && (
        <ul id={listId} role="listbox" aria-label="Universities" className="combobox-list">
          {options.map((o, i) => (
            <li
              key={o.id ?? "all"}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={i === active ? "active" : ""}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(o.id);
              }}
            >
              {o.label}
            </li>
          ))}
        </ul>
      )}
      {open && universities.data && text && shown.length === 0 && (
        <p className="field-hint" role="status">
          No university matches “{text}”
        </p>
      )}
    </div>
  );
}
