/**
 * The limits of what people type and upload (docs/product-rules.md "Limits"), for the worker and the
 * SPA's forms: a module of its own so the home page, which has no such form, does not load them
 * (docs/decisions/023).
 */
export const LIMITS = {
  /** The create/edit page's form (its counters stop here). */
  titleMax: 35,
  titleWarn: 30,
  descriptionMax: 1000,
  descriptionWarn: 900,
  addressMax: 300,
  /**
   * What the API accepts: the product has two client readings (the page form's 35/1000 and the
   * modal variant's 200/2000), and the API serves both; more is 422.
   */
  titleMaxApi: 200,
  descriptionMaxApi: 2000,
  rejectionReasonMax: 500,
  photosPerListing: 10,
  imageMaxBytes: 10 * 1024 * 1024,
  documentMaxBytes: 10 * 1024 * 1024,
  avatarMaxBytes: 10 * 1024 * 1024,
  /** The card-size copy the browser makes of each photo. */
  thumbnailMaxBytes: 512 * 1024,
  passwordMin: 6,
  passwordMax: 128,
  /** A first or last name (shown to other students and in emails). */
  nameMax: 50,
  phoneMax: 30,
  /** The notes sent with an identity document. */
  verificationNotesMax: 1000,
  minRent: 1,
  messageMax: 2000,
  feedbackMessageMax: 5000,
} as const;

/** A byte limit as people read it: "10MB" (the limits are whole mebibytes). */
export function megabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))}MB`;
}

/**
 * An emailed code: 6 digits. Plain values (no zod) so the SPA's code fields can check it without
 * loading zod; `codeSchema` in auth.ts is built from them.
 */
const CODE_LENGTH = 6;
export const EMAILED_CODE = {
  pattern: new RegExp(`^\\d{${CODE_LENGTH}}$`),
  length: CODE_LENGTH,
  message: `Please enter a ${CODE_LENGTH}-digit verification code`,
} as const;
