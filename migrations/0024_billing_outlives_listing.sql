-- A deleted listing's promotions stay readable by its owner (its snapshot here) and its billing history
-- outlives it: billing_history no longer cascades from listings (SQLite rebuilds the table to drop the key).
CREATE TABLE `deleted_promoted_listings` (
	`listing_id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`listing` text NOT NULL,
	`deleted_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `deleted_promoted_listings_user_idx` ON `deleted_promoted_listings` (`user_id`,`deleted_at`);--> statement-breakpoint
CREATE TABLE `__new_billing_history` (
	`id` text PRIMARY KEY NOT NULL,
	`listing_id` text NOT NULL,
	`subscription_id` text,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`period_start` integer NOT NULL,
	`period_end` integer NOT NULL,
	`created` integer NOT NULL,
	`status` text NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_billing_history` (`id`, `listing_id`, `subscription_id`, `amount`, `currency`, `period_start`, `period_end`, `created`, `status`)
	SELECT `id`, `listing_id`, `subscription_id`, `amount`, `currency`, `period_start`, `period_end`, `created`, `status` FROM `billing_history`;--> statement-breakpoint
DROP TABLE `billing_history`;--> statement-breakpoint
ALTER TABLE `__new_billing_history` RENAME TO `billing_history`;--> statement-breakpoint
CREATE INDEX `billing_history_listing_idx` ON `billing_history` (`listing_id`,`created`);
