-- Web push (docs/decisions/027): per-kind channels on users (the older email_on_* columns stay and are
-- the `email` of their kind), the browsers' push subscriptions, and the notices a push stands for
-- (one per conversation until read; held in quiet hours; the 15-minute email fallback).
ALTER TABLE `users` ADD `push_on_message` integer DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE `users` ADD `push_on_deal` integer DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE `users` ADD `email_on_deal` integer DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE `users` ADD `push_on_saved_search` integer DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE `users` ADD `push_on_review` integer DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE `users` ADD `quiet_hours` text;
--> statement-breakpoint
CREATE TABLE `push_subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`endpoint` text NOT NULL,
	`p256dh` text NOT NULL,
	`auth` text NOT NULL,
	`not_before` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `push_subscriptions_endpoint_unique` ON `push_subscriptions` (`endpoint`);
--> statement-breakpoint
CREATE INDEX `push_subscriptions_user_idx` ON `push_subscriptions` (`user_id`,`created_at`);
--> statement-breakpoint
CREATE TABLE `push_notices` (
	`user_id` text NOT NULL,
	`topic` text NOT NULL,
	`kind` text NOT NULL,
	`payload` text NOT NULL,
	`event` text NOT NULL,
	`held` integer DEFAULT false NOT NULL,
	`sent_at` text,
	`email_due_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`user_id`, `topic`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `push_notices_held_idx` ON `push_notices` (`held`,`user_id`);
--> statement-breakpoint
CREATE INDEX `push_notices_email_due_idx` ON `push_notices` (`email_due_at`);
