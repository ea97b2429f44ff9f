-- Copied photos (docs/decisions/028): per listing photo, the SHA-256 of the stored bytes and its
-- perceptual hashes (pHash of the picture and of its centre, each also mirrored; dHash), with one indexed
-- integer column per band (22, 21 and 21 bits) of the pHash and of the centre pHash, so every near match is found
-- from the rows whose bands lie within a few bits and is checked exactly. No foreign key: the row
-- outlives its listing for a year (`gone_at`), so a deleted listing's photos still count as first posted.
CREATE TABLE `photo_hashes` (
	`photo_id` text PRIMARY KEY NOT NULL,
	`listing_id` text NOT NULL,
	`owner_id` text NOT NULL,
	`picture` text NOT NULL,
	`status` text NOT NULL,
	`sha256` text,
	`phash` text,
	`phash_mirror` text,
	`phash_centre` text,
	`phash_centre_mirror` text,
	`dhash` text,
	`dhash_mirror` text,
	`p0` integer,
	`p1` integer,
	`p2` integer,
	`c0` integer,
	`c1` integer,
	`c2` integer,
	`posted_at` text NOT NULL,
	`gone_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `photo_hashes_listing_idx` ON `photo_hashes` (`listing_id`);
--> statement-breakpoint
CREATE INDEX `photo_hashes_sha_idx` ON `photo_hashes` (`sha256`);
--> statement-breakpoint
CREATE INDEX `photo_hashes_p0_idx` ON `photo_hashes` (`p0`);
--> statement-breakpoint
CREATE INDEX `photo_hashes_p1_idx` ON `photo_hashes` (`p1`);
--> statement-breakpoint
CREATE INDEX `photo_hashes_p2_idx` ON `photo_hashes` (`p2`);
--> statement-breakpoint
CREATE INDEX `photo_hashes_c0_idx` ON `photo_hashes` (`c0`);
--> statement-breakpoint
CREATE INDEX `photo_hashes_c1_idx` ON `photo_hashes` (`c1`);
--> statement-breakpoint
CREATE INDEX `photo_hashes_c2_idx` ON `photo_hashes` (`c2`);
--> statement-breakpoint
-- A later photo matching an earlier one of another owner, found when either was hashed.
CREATE TABLE `photo_matches` (
	`photo_id` text NOT NULL,
	`matched_photo_id` text NOT NULL,
	`distance` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`photo_id`, `matched_photo_id`)
);
--> statement-breakpoint
CREATE INDEX `photo_matches_matched_idx` ON `photo_matches` (`matched_photo_id`);
--> statement-breakpoint
-- Pairs staff marked "not a copy" (roommates share a kitchen), by the two pictures' SHA-256: never flagged again.
CREATE TABLE `photo_not_copies` (
	`sha256` text NOT NULL,
	`matched_sha256` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`sha256`, `matched_sha256`)
);
--> statement-breakpoint
-- Why the photo check sent a listing to review (null: nothing found); shown to staff and in the queue.
ALTER TABLE `listings` ADD `review_reason` text;
