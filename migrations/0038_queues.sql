-- Background work on queues (docs/decisions/033): failures and dead letters, deliveries done, the dev mailbox's
-- pending notices; a photo's decode claim and its stored file's index (docs/decisions/032).
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
--> statement-breakpoint
-- Photos still on a listing are hashed again from the 1/8-scale decode (docs/decisions/032), so every
-- current photo is compared with the same decoder; the backfill queues them (rerunnable) and their matches
-- are found again then. "Not a copy" is kept (by the pictures' bytes); rows of gone listings keep theirs.
DELETE FROM `photo_matches` WHERE `photo_id` IN (SELECT `id` FROM `listing_photos`) OR `matched_photo_id` IN (SELECT `id` FROM `listing_photos`);
--> statement-breakpoint
DELETE FROM `photo_window_bands` WHERE `photo_id` IN (SELECT `id` FROM `listing_photos`);
--> statement-breakpoint
DELETE FROM `photo_hashes` WHERE `status` IN ('hashed', 'tiny', 'flat') AND `photo_id` IN (SELECT `id` FROM `listing_photos`);
