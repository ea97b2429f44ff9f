/**
 * Schemas of the SPA's forms, derived from the API's input schemas so a rule is written once:
 * a form adds only what its page does differently (spec section 5).
 */
import { z } from "zod";
import { LIMITS } from "./constants";
import { listingInputSchema } from "./listings";

const api = listingInputSchema.shape;

/**
 * The create/edit page's listing form, on its text inputs' values: the page's own 35/1000 limits
 * (the API accepts the modal variant's 200/2000), rent typed as text and rounded, photos counted
 * by the form itself (they are files until uploaded).
 */
export const listingFormSchema = listingInputSchema.omit({ pictures: true }).extend({
  title: api.title.max(LIMITS.titleMax, `Title must be at most ${LIMITS.titleMax} characters`),
  description: api.description.max(LIMITS.descriptionMax, `Description must be at most ${LIMITS.descriptionMax} characters`),
  monthly_rent: z
    .string()
    .trim()
    .min(1, "Monthly rent is required")
    // Rounded, then the API's own rent rules and messages.
    .transform((rent, ctx) => {
      const checked = api.monthly_rent.safeParse(Math.round(Number(rent)));
      if (checked.success) return checked.data;
      for (const issue of checked.error.issues) ctx.addIssue({ code: "custom", message: issue.message });
      return z.NEVER;
    }),
});
export type ListingFormValues = z.input<typeof listingFormSchema>;
export type ListingFormData = z.output<typeof listingFormSchema>;
