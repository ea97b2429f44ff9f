CREATE TABLE `saved_search_hits` (
	`search_id` text NOT NULL,
	`listing_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`emailed_at` text,
	PRIMARY KEY(`search_id`, `listing_id`),
	FOREIGN KEY (`search_id`) REFERENCES `saved_searches`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`listing_id`) REFERENCES `listings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `saved_search_hits_pending_idx` ON `saved_search_hits` (`emailed_at`,`search_id`);--> statement-breakpoint
CREATE INDEX `saved_search_hits_listing_idx` ON `saved_search_hits` (`listing_id`);--> statement-breakpoint
CREATE TABLE `saved_searches` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`query` text NOT NULL,
	`university_id` integer,
	`alert_frequency` text DEFAULT 'instant' NOT NULL,
	`paused_at` text,
	`last_alert_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `saved_searches_user_idx` ON `saved_searches` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `saved_searches_university_idx` ON `saved_searches` (`university_id`,`paused_at`);--> statement-breakpoint
ALTER TABLE `listings` ADD `latitude` real;--> statement-breakpoint
ALTER TABLE `listings` ADD `longitude` real;--> statement-breakpoint
ALTER TABLE `listings` ADD `distance_miles` real;--> statement-breakpoint
ALTER TABLE `listings` ADD `distance_key` real GENERATED ALWAYS AS (ifnull(distance_miles, 100000)) VIRTUAL;--> statement-breakpoint
CREATE INDEX `listings_browse_distance_idx` ON `listings` (`verification_status`,`status`,`distance_key`,`id`);--> statement-breakpoint
CREATE INDEX `listings_browse_university_distance_idx` ON `listings` (`university_id`,`verification_status`,`status`,`distance_key`,`id`);--> statement-breakpoint
ALTER TABLE `universities` ADD `latitude` real;--> statement-breakpoint
ALTER TABLE `universities` ADD `longitude` real;--> statement-breakpoint
ALTER TABLE `users` ADD `email_on_saved_search` integer DEFAULT true NOT NULL;