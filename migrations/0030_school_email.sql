-- The school email badge (docs/decisions/028): the confirmed school address (private, one per account,
-- unique across accounts), its domain as shown on the badge, when it was confirmed (the badge lapses
-- after a year until reconfirmed), and the address awaiting its emailed code.
ALTER TABLE `users` ADD `school_email` text;
--> statement-breakpoint
ALTER TABLE `users` ADD `school_email_domain` text;
--> statement-breakpoint
ALTER TABLE `users` ADD `school_email_verified_at` text;
--> statement-breakpoint
ALTER TABLE `users` ADD `school_email_pending` text;
--> statement-breakpoint
CREATE UNIQUE INDEX `users_school_email_unique` ON `users` (`school_email`);
