-- Issue 22: access tokens carry the user's token version (a reset or password change bumps it);
-- the per-account daily back-off needs the time of the last counted attempt; emailed codes count
-- tries per address (and the codes each compared, for the daily ceiling); codes remember who asked
-- (a SHA-256 of the address) for the send limits per address.
ALTER TABLE `users` ADD `token_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `auth_throttle` ADD `last_failure_at` integer;--> statement-breakpoint
CREATE TABLE `email_code_tries` (
	`code_id` text NOT NULL,
	`address_hash` text NOT NULL,
	`tries` integer DEFAULT 0 NOT NULL,
	`compared` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`code_id`, `address_hash`),
	FOREIGN KEY (`code_id`) REFERENCES `email_codes`(`id`) ON UPDATE no action ON DELETE cascade
);--> statement-breakpoint
ALTER TABLE `email_codes` ADD `requester_hash` text;
