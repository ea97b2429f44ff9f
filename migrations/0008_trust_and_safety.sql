CREATE TABLE `blocks` (
	`blocker_id` text NOT NULL,
	`blocked_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`blocker_id`, `blocked_id`),
	FOREIGN KEY (`blocker_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `blocks_blocked_idx` ON `blocks` (`blocked_id`);--> statement-breakpoint
CREATE TABLE `reports` (
	`id` text PRIMARY KEY NOT NULL,
	`reporter_id` text NOT NULL,
	`kind` text NOT NULL,
	`listing_id` text,
	`reported_user_id` text NOT NULL,
	`conversation_id` text,
	`reason` text NOT NULL,
	`details` text,
	`status` text DEFAULT 'open' NOT NULL,
	`resolution` text,
	`resolved_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`listing_id`) REFERENCES `listings`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `reports_status_created_idx` ON `reports` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `reports_reported_user_idx` ON `reports` (`reported_user_id`);--> statement-breakpoint
ALTER TABLE `conversations` ADD `safety_flagged_at` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `safety_reasons` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `safety_reviewed_at` text;--> statement-breakpoint
CREATE INDEX `conversations_safety_idx` ON `conversations` (`safety_flagged_at`);--> statement-breakpoint
ALTER TABLE `listings` ADD `availability_confirmed_at` text;--> statement-breakpoint
ALTER TABLE `listings` ADD `availability_asked_at` text;--> statement-breakpoint
CREATE INDEX `listings_availability_idx` ON `listings` (`status`,`availability_confirmed_at`);--> statement-breakpoint
CREATE INDEX `listings_rent_comparables_idx` ON `listings` (`university_id`,`unit_type`,`verification_status`,`monthly_rent`);--> statement-breakpoint
ALTER TABLE `messages` ADD `safety_flags` text;--> statement-breakpoint
ALTER TABLE `users` ADD `suspended_at` text;--> statement-breakpoint
-- Existing listings count as confirmed when last changed (else created), so the first freshness
-- emails go out 14 days after that, not all at once on deploy.
UPDATE `listings` SET `availability_confirmed_at` = COALESCE(`updated_at`, `created_at`) WHERE `availability_confirmed_at` IS NULL;
