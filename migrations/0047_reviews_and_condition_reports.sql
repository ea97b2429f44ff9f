CREATE TABLE `condition_reports` (
	`deal_id` text NOT NULL,
	`phase` text NOT NULL,
	`author_id` text NOT NULL,
	`rooms` text NOT NULL,
	`photos` text DEFAULT '[]' NOT NULL,
	`created_at` text NOT NULL,
	`comment_text` text,
	`comment_at` text,
	PRIMARY KEY(`deal_id`, `phase`),
	FOREIGN KEY (`deal_id`) REFERENCES `deals`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `condition_reports_author_idx` ON `condition_reports` (`author_id`);--> statement-breakpoint
CREATE TABLE `review_reports` (
	`review_id` text NOT NULL,
	`reporter_id` text NOT NULL,
	`reason` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`review_id`, `reporter_id`),
	FOREIGN KEY (`review_id`) REFERENCES `reviews`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `reviews` (
	`id` text PRIMARY KEY NOT NULL,
	`deal_id` text NOT NULL,
	`author_id` text,
	`subject_id` text,
	`role` text NOT NULL,
	`rating` integer NOT NULL,
	`text` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`revealed_at` text,
	`reply_text` text,
	`reply_at` text,
	`flags` text,
	`report_count` integer DEFAULT 0 NOT NULL,
	`hidden_at` text,
	`hidden_reason` text,
	`checked_at` text,
	FOREIGN KEY (`deal_id`) REFERENCES `deals`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`subject_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reviews_deal_role_unique` ON `reviews` (`deal_id`,`role`);--> statement-breakpoint
CREATE INDEX `reviews_subject_idx` ON `reviews` (`subject_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `reviews_queue_idx` ON `reviews` (`created_at`) WHERE checked_at IS NULL AND (report_count > 0 OR flags IS NOT NULL);--> statement-breakpoint
CREATE INDEX `reviews_hidden_idx` ON `reviews` (`hidden_at`) WHERE hidden_at IS NOT NULL;--> statement-breakpoint
ALTER TABLE `deals` ADD `review_window_ends_at` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `reviews_revealed_at` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `renter_reviewed_at` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `lister_reviewed_at` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `renter_replied_at` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `lister_replied_at` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `review_invite_due_at` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `review_reminder_due_at` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `review_reveal_due_at` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `move_in_report_at` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `move_out_report_at` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `move_in_comment_at` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `move_out_comment_at` text;--> statement-breakpoint
CREATE INDEX `deals_review_invite_idx` ON `deals` (`review_invite_due_at`) WHERE review_invite_due_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX `deals_review_reminder_idx` ON `deals` (`review_reminder_due_at`) WHERE review_reminder_due_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX `deals_review_reveal_idx` ON `deals` (`review_reveal_due_at`) WHERE review_reveal_due_at IS NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `lister_review_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `lister_review_sum` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `renter_review_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `renter_review_sum` integer DEFAULT 0 NOT NULL;