import { cloneElement, useId, useState, type ReactElement } from "react";

interface TooltipProps {
  content: string;
  /** One focusable element (a button or link) that the tooltip describes. */
  children: ReactElement<{ "aria-describedby"?: string }>;
}

/**
 * A tooltip shown on hover and on keyboard focus, hidden by Escape; the text is the trigger's
 * accessible description. It also works on disabled buttons (the wrapper receives the hover).
 */
export function Tooltip({ content, children }: TooltipProps) {
  const [visible, setVisible] = useState(false);
  const id = useId();
  return (
    <span
      className="tooltip-anchor"
      onMouseEnter={() => setVisible(true)}
      onMouseLeave={() => setVisible(false)}
      onFocus={() => setVisible(true)}
      onBlur={() => setVisible(false)}
      onKeyDown={(event) => {
        if (event.key === "Escape") setVisible(false);
      }}
    >
      {cloneElement(children, { "aria-describedby": id })}
      <span role="tooltip" id={id} className={`tooltip${visible ? " tooltip-visible" : ""}`}>
        {content}
      </span>
    </span>
  );
}
