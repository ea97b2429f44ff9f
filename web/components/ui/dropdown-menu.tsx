import { useEffect, useId, useRef, useState, type ReactNode } from "react";

export interface MenuItem {
  label: ReactNode;
  onSelect: () => void;
  /** Keep the menu open after selecting (toggles). */
  keepOpen?: boolean;
}

interface DropdownMenuProps {
  /** Content of the trigger button. */
  trigger: ReactNode;
  triggerLabel: string;
  items: MenuItem[];
  triggerClassName?: string;
}

/**
 * A menu button (WAI-ARIA menu pattern): Enter/Space/ArrowDown open it on the first item,
 * ArrowUp/ArrowDown/Home/End move, Escape and Tab close it and give focus back to the button.
 */
export function DropdownMenu({ trigger, triggerLabel, items, triggerClassName }: DropdownMenuProps) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const itemRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const menuId = useId();

  useEffect(() => {
    if (open) itemRefs.current[active]?.focus();
  }, [open, active]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  function close(returnFocus = true) {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  }

  function openAt(index: number) {
    setActive(index);
    setOpen(true);
  }

  function onMenuKeyDown(event: React.KeyboardEvent) {
    const last = items.length - 1;
    if (event.key === "ArrowDown") setActive((i) => (i >= last ? 0 : i + 1));
    else if (event.key === "ArrowUp") setActive((i) => (i <= 0 ? last : i - 1));
    else if (event.key === "Home") setActive(0);
    else if (event.key === "End") setActive(last);
    else if (event.key === "Escape") close();
    else if (event.key === "Tab") close(false);
    else return;
    if (event.key !== "Tab") event.preventDefault();
  }

  return (
    <div className="dropdown" ref={root}>
      <button
        ref={button}
        type="button"
        className={triggerClassName}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close() : openAt(0))}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown") {
            event.preventDefault();
            openAt(0);
          } else if (event.key === "ArrowUp") {
            event.preventDefault();
            openAt(items.length - 1);
          }
        }}
      >
        {/* The name comes from hidden text, not aria-label: the trigger shows initials or a picture,
            which are not a label a voice user would say (WCAG 2.5.3). */}
        <span className="visually-hidden">{triggerLabel}</span>
        {trigger}
      </button>
      {open && (
        <div className="dropdown-menu" role="menu" id={menuId} aria-label={triggerLabel} onKeyDown={onMenuKeyDown}>
          {items.map((item, index) => (
            <button
              key={index}
              ref={(el) => {
                itemRefs.current[index] = el;
              }}
              type="button"
              role="menuitem"
              tabIndex={index === active ? 0 : -1}
              className="dropdown-item"
              onClick={() => {
                item.onSelect();
                if (!item.keepOpen) close(false);
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
