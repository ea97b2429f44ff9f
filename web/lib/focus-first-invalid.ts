import { useEffect, useRef, useState } from "react";

/**
 * Each refused submit moves focus to the form's first invalid field, centred so its
 * label and error show too (focus alone may leave them under the sticky header or above the screen).
 * `formRef` goes on the form; `refuse()` after setting the errors.
 */
export function useFocusFirstInvalid() {
  const formRef = useRef<HTMLFormElement>(null);
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (!refusals) return;
    const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!first) return;
    first.focus();
    first.scrollIntoView?.({ block: "center" });
  }, [refusals]);
  return { formRef, refuse: () => setRefusals((n) => n + 1) };
}
