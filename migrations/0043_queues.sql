-- Background work on queues (docs/decisions/037): failures and dead letters, deliveries done, the dev mailbox's
-- pending notices; a photo's decode claim and its stored file's index (docs/decisions/036).
CREATE TABLE `dev_pending_notices` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `notice_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`delivered_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `queue_failures` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`subject` text,
	`body` text NOT NULL,
	`error` text,
	`attempts` integer NOT NULL,
	`sent_at` text NOT NULL,
	`failed_at` text NOT NULL,
	`dead_at` text
);
--> statement-breakpoint
CREATE INDEX `queue_failures_dead_idx` ON `queue_failures` (`dead_at`,`id`);--> statement-breakpoint
ALTER TABLE `photo_hashes` ADD `claim` text;--> statement-breakpoint
CREATE INDEX `photo_hashes_picture_idx` ON `photo_hashes` (`picture`);