-- Copied photos (docs/decisions/028): per listing photo, the SHA-256 of the stored bytes and the 64-bit
-- dHash of the picture and of its mirror, with one indexed column per 16-bit band of the dHash, so a
-- near match is found from the rows sharing a band and checked exactly. No foreign key: the row outlives
-- its listing (a deleted listing's photos still count as first posted by its owner).
CREATE TABLE `photo_hashes` (
	`photo_id` text PRIMARY KEY NOT NULL,
	`listing_id` text NOT NULL,
	`owner_id` text NOT NULL,
	`picture` text NOT NULL,
	`status` text NOT NULL,
	`sha256` text,
	`dhash` text,
	`dhash_mirror` text,
	`band0` text,
	`band1` text,
	`band2` text,
	`band3` text,
	`posted_at` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `photo_hashes_listing_idx` ON `photo_hashes` (`listing_id`);
--> statement-breakpoint
CREATE INDEX `photo_hashes_sha_idx` ON `photo_hashes` (`sha256`);
--> statement-breakpoint
CREATE INDEX `photo_hashes_band0_idx` ON `photo_hashes` (`band0`);
--> statement-breakpoint
CREATE INDEX `photo_hashes_band1_idx` ON `photo_hashes` (`band1`);
--> statement-breakpoint
CREATE INDEX `photo_hashes_band2_idx` ON `photo_hashes` (`band2`);
--> statement-breakpoint
CREATE INDEX `photo_hashes_band3_idx` ON `photo_hashes` (`band3`);
