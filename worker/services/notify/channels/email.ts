/** The email channel: the event's template, sent through services/email.ts (dev mailbox or the mail API). */
import { sendEmail } from "../../email";
import { emailOf, type Channel } from "../events";

export const emailChannel: Channel = {
  name: "email",
  deliver: ({ db, env, config }, to, event) => sendEmail(db, env, config, emailOf(to, event, config)),
};
