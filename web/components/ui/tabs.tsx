import { useEffect, useId, useRef, type ReactNode } from "react";

export interface TabItem {
  id: string;
  label: ReactNode;
  content: ReactNode;
}

interface TabsProps {
  tabs: TabItem[];
  value: string;
  onChange: (id: string) => void;
  label: string;
}

/**
 * Tabs (WAI-ARIA tabs pattern, automatic activation): one tab in the tab order, ArrowLeft/
 * ArrowRight/Home/End move and select, the panel is labelled by its tab.
 */
export function Tabs({ tabs, value, onChange, label }: TabsProps) {
  const baseId = useId();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const current = Math.max(
    0,
    tabs.findIndex((t) => t.id === value),
  );

  // A tab bar wider than the screen scrolls sideways: keep the selected tab in view, however it was
  // selected (click, arrow key, or set from outside). Only the bar scrolls, never the page.
  useEffect(() => {
    const tab = refs.current[current];
    const list = tab?.parentElement;
    if (!tab || !list || list.scrollWidth <= list.clientWidth) return;
    const tabBox = tab.getBoundingClientRect();
    const listBox = list.getBoundingClientRect();
    if (tabBox.left < listBox.left) list.scrollLeft -= listBox.left - tabBox.left;
    else if (tabBox.right > listBox.right) list.scrollLeft += tabBox.right - listBox.right;
  }, [current]);

  function select(index: number) {
    const tab = tabs[(index + tabs.length) % tabs.length]!;
    onChange(tab.id);
    refs.current[(index + tabs.length) % tabs.length]?.focus();
  }

  return (
    <div className="tabs">
      <div
        role="tablist"
        aria-label={label}
        className="tab-list"
        onKeyDown={(event) => {
          const moves: Record<string, number> = {
            ArrowRight: current + 1,
            ArrowLeft: current - 1,
            Home: 0,
            End: tabs.length - 1,
          };
          const target = moves[event.key];
          if (target === undefined) return;
          event.preventDefault();
          select(target);
        }}
      >
        {tabs.map((tab, index) => (
          <button
            key={tab.id}
            ref={(el) => {
              refs.current[index] = el;
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${tab.id}`}
            aria-selected={index === current}
            aria-controls={`${baseId}-panel-${tab.id}`}
            tabIndex={index === current ? 0 : -1}
            className="tab"
            onClick={() => onChange(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab, index) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`${baseId}-panel-${tab.id}`}
          aria-labelledby={`${baseId}-tab-${tab.id}`}
          hidden={index !== current}
          tabIndex={0}
          className="tab-panel"
        >
          {index === current ? tab.content : null}
        </div>
      ))}
    </div>
  );
}
