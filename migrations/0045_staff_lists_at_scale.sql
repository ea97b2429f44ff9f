CREATE TABLE `signups_by_day` (
	`day` text PRIMARY KEY NOT NULL,
	`n` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `site_counts` (
	`name` text PRIMARY KEY NOT NULL,
	`n` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX `listings_university_promotion_end_idx`;--> statement-breakpoint
DROP INDEX `listings_rent_comparables_idx`;--> statement-breakpoint
CREATE INDEX `listings_promoted_newest_idx` ON `listings` (`verification_status`,`status`,`created_at`,`id`) WHERE promotion_end IS NOT NULL;--> statement-breakpoint
CREATE INDEX `listings_promoted_price_idx` ON `listings` (`verification_status`,`status`,`monthly_rent`,`id`) WHERE promotion_end IS NOT NULL;--> statement-breakpoint
CREATE INDEX `listings_promoted_distance_idx` ON `listings` (`verification_status`,`status`,`distance_key`,`id`) WHERE promotion_end IS NOT NULL;--> statement-breakpoint
CREATE INDEX `listings_university_promoted_newest_idx` ON `listings` (`university_id`,`verification_status`,`status`,`created_at`,`id`) WHERE promotion_end IS NOT NULL;--> statement-breakpoint
CREATE INDEX `listings_university_promoted_price_idx` ON `listings` (`university_id`,`verification_status`,`status`,`monthly_rent`,`id`) WHERE promotion_end IS NOT NULL;--> statement-breakpoint
CREATE INDEX `listings_university_promoted_distance_idx` ON `listings` (`university_id`,`verification_status`,`status`,`distance_key`,`id`) WHERE promotion_end IS NOT NULL;--> statement-breakpoint
CREATE INDEX `listings_staff_newest_idx` ON `listings` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `listings_staff_review_idx` ON `listings` (`verification_status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `listings_rent_comparables_idx` ON `listings` (`university_id`,`unit_type`,`verification_status`,`created_at`,`monthly_rent`);--> statement-breakpoint
DROP INDEX `feedback_archived_created_idx`;--> statement-breakpoint
CREATE INDEX `feedback_email_idx` ON `feedback` (`email`,`created_at`);--> statement-breakpoint
CREATE INDEX `feedback_archived_created_idx` ON `feedback` (`archived`,`created_at`,`id`);--> statement-breakpoint
DROP INDEX `users_created_at_idx`;--> statement-breakpoint
DROP INDEX `users_id_verification_idx`;--> statement-breakpoint
CREATE INDEX `users_created_at_idx` ON `users` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `users_id_verification_idx` ON `users` (`id_verification_status`,`created_at`,`id`);--> statement-breakpoint
DROP INDEX `verification_requests_status_idx`;--> statement-breakpoint
CREATE INDEX `verification_requests_status_idx` ON `verification_requests` (`status`,`created_at`,`id`);--> statement-breakpoint
ALTER TABLE `conversations` ADD `activity_at` text GENERATED ALWAYS AS (coalesce(last_message_at, created_at)) VIRTUAL;--> statement-breakpoint
CREATE INDEX `conversations_activity_idx` ON `conversations` (`activity_at`,`id`);--> statement-breakpoint
CREATE INDEX `deals_created_idx` ON `deals` (`created_at`,`id`);