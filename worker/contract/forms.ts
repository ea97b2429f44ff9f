/**
 * Schemas of the SPA's forms, derived from the API's input schemas so a rule is written once:
 * a form adds only what its page does differently (docs/product-rules.md "Limits").
 */
import { z } from "./zod";
import { LIMITS } from "./limits";
import type { LeaseTerm } from "./constants";
import { registerSchema } from "./auth";
import { checkDateRange, listingInputFields } from "./listings";

/** The listing form's words where a unit type allows no gender preference (the rule: `allowsGenderPreference`, policies.ts). */
export const GENDER_PREFERENCE_TEXTS = {
  notOffered:
    "Gender preferences are only allowed for shared living spaces (fair-housing rules). A studio or one-bedroom unit is open to everyone.",
} as const;

const api = listingInputFields.shape;

/** A date input's value, through the API's date rule: empty is no date. */
const dateInput = (rule: typeof api.available_from) =>
  z.string().transform((value, ctx) => {
    if (!value) return null;
    const checked = rule.safeParse(value);
    if (checked.success) return checked.data ?? null;
    for (const issue of checked.error.issues) ctx.addIssue({ code: "custom", message: issue.message });
    return z.NEVER;
  });

/**
 * The create/edit page's listing form, on its text inputs' values: the page's own 35/1000 limits
 * (the API accepts the modal variant's 200/2000), rent typed as text (a whole number, as the API), photos counted
 * by the form itself (they are files until uploaded), dates as the date inputs give them.
 */
export const listingFormSchema = listingInputFields
  .omit({ pictures: true })
  .extend({
    title: api.title.max(LIMITS.titleMax, `Title must be at most ${LIMITS.titleMax} characters`),
    description: api.description.max(LIMITS.descriptionMax, `Description must be at most ${LIMITS.descriptionMax} characters`),
    monthly_rent: z
      .string()
      .trim()
      .min(1, "Monthly rent is required")
      // The API's own rent rules and messages, on the number as typed: never rounded (850.75 is refused).
      .transform((rent, ctx) => {
        const checked = api.monthly_rent.safeParse(Number(rent));
        if (checked.success) return checked.data;
        for (const issue of checked.error.issues) ctx.addIssue({ code: "custom", message: issue.message });
        return z.NEVER;
      }),
    available_from: dateInput(api.available_from),
    available_to: dateInput(api.available_to),
  })
  // Both dates or neither, in order (the API's rule and messages), shown even while another field is invalid.
  .superRefine((form, ctx) => checkDateRange(form, ctx), { when: ({ value }) => typeof value === "object" && value !== null });
export type ListingFormValues = z.input<typeof listingFormSchema>;
export type ListingFormData = z.output<typeof listingFormSchema>;

/**
 * The sign-up page's form: the API's register rules and messages (names, email, password), plus
 * what only the page asks: a university (optional for the API) and the password typed twice.
 */
export const signupFormSchema = registerSchema
  .omit({ phone: true, university_id: true })
  .extend({
    university_id: z.string().min(1, "University is required"),
    confirm: z.string().min(1, "Please confirm your password"),
  })
  .refine((form) => form.confirm === form.password, {
    message: "Passwords do not match",
    path: ["confirm"],
    // Checked even while another field is invalid, so every error shows at once.
    when: ({ value }) => typeof value === "object" && value !== null && "confirm" in value && !!value.confirm,
  });
export type SignupFormValues = z.input<typeof signupFormSchema>;

/**
 * Exact dates (docs/decisions/021): the typical US dates of each lease term, `MM-DD`, which the listing form
 * fills in when the owner picks a term (they may change them). Fall ends in the year it starts.
 */
export const TERM_DATES = {
  fall: { from: "08-20", to: "12-20" },
  spring: { from: "01-05", to: "05-15" },
  summer: { from: "05-15", to: "08-15" },
} as const satisfies Record<LeaseTerm, { from: string; to: string }>;

/**
 * The term's next typical dates on or after `today` (`YYYY-MM-DD`): this year's if the term has not
 * started yet, otherwise next year's. Pure: the caller passes the day (the form does, in its handler).
 */
export function nextTermDates(term: LeaseTerm, today: string): { from: string; to: string } {
  const year = Number(today.slice(0, 4));
  const { from, to } = TERM_DATES[term];
  const y = `${year}-${from}` >= today ? year : year + 1;
  return { from: `${y}-${from}`, to: `${y}-${to}` };
}
