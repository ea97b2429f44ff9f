/**
 * After a dialog closes (its cleanup gives focus back to its opener first, which may be gone), then
 * `then`: the deal's status line takes the focus and announces the change.
 */
export const afterClose = (then: () => void) => setTimeout(then, 0);
