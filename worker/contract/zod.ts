/**
 * zod for every schema of the contract, configured once: no `new Function` fast path. Our CSP forbids
 * eval, and zod's probe for it, though caught, is reported by browsers as a CSP violation (Lighthouse
 * counts it); Workers forbid eval too.
 */
import { z } from "zod";

z.config({ jitless: true });

export { z };
