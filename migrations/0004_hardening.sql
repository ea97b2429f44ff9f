CREATE TABLE `auth_throttle` (
	`key` text NOT NULL,
	`window_start` integer NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`key`, `window_start`)
);
--> statement-breakpoint
CREATE INDEX `auth_throttle_window_idx` ON `auth_throttle` (`window_start`);--> statement-breakpoint
CREATE TABLE `document_uploads` (
	`key` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `document_uploads_created_idx` ON `document_uploads` (`created_at`);--> statement-breakpoint
CREATE TABLE `revoked_admin_tokens` (
	`jti` text PRIMARY KEY NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `revoked_admin_tokens_expires_idx` ON `revoked_admin_tokens` (`expires_at`);--> statement-breakpoint
ALTER TABLE `listings` ADD `moderation_status` text DEFAULT 'visible' NOT NULL;--> statement-breakpoint
ALTER TABLE `refresh_tokens` ADD `family_expires_at` text;--> statement-breakpoint
ALTER TABLE `refresh_tokens` ADD `successor` text;