CREATE TABLE `evidence_photos` (
	`name` text PRIMARY KEY NOT NULL,
	`uploader_id` text NOT NULL,
	`content_type` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`kept_at` text,
	`legacy_key` text
);
--> statement-breakpoint
CREATE INDEX `evidence_photos_uploader_idx` ON `evidence_photos` (`uploader_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `evidence_photos_unkept_idx` ON `evidence_photos` (`created_at`) WHERE "evidence_photos"."kept_at" IS NULL;--> statement-breakpoint
CREATE INDEX `evidence_photos_legacy_idx` ON `evidence_photos` (`legacy_key`) WHERE "evidence_photos"."legacy_key" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `live_sockets` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`party` text NOT NULL,
	`room` text NOT NULL,
	`opened_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `live_sockets_user_idx` ON `live_sockets` (`user_id`,`opened_at`);--> statement-breakpoint
CREATE TABLE `spent_socket_tickets` (
	`id` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `spent_socket_tickets_expires_idx` ON `spent_socket_tickets` (`expires_at`);--> statement-breakpoint
DROP INDEX `users_school_email_unique`;--> statement-breakpoint
ALTER TABLE `users` ADD `school_email_canonical` text;--> statement-breakpoint
CREATE UNIQUE INDEX `users_school_email_canonical_unique` ON `users` (`school_email_canonical`);--> statement-breakpoint
CREATE INDEX `deal_statements_author_idx` ON `deal_statements` (`author_id`);