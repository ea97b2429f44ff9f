-- Copied photos cropped off one or two sides (docs/decisions/028): the pHash of each 90 %-window of a
-- photo (four anchored at the corners, four at the edges), then the same mirrored, as JSON; the
-- windows' pHashes in three indexed bands, one row per window.
ALTER TABLE `photo_hashes` ADD `phash_windows` text;
--> statement-breakpoint
CREATE TABLE `photo_window_bands` (
	`photo_id` text NOT NULL,
	`window` integer NOT NULL,
	`b0` integer NOT NULL,
	`b1` integer NOT NULL,
	`b2` integer NOT NULL,
	PRIMARY KEY(`photo_id`, `window`)
);
--> statement-breakpoint
CREATE INDEX `photo_window_bands_b0_idx` ON `photo_window_bands` (`b0`);
--> statement-breakpoint
CREATE INDEX `photo_window_bands_b1_idx` ON `photo_window_bands` (`b1`);
--> statement-breakpoint
CREATE INDEX `photo_window_bands_b2_idx` ON `photo_window_bands` (`b2`);
--> statement-breakpoint
-- Photos hashed before the windows existed and still on a listing are hashed again by the backfill
-- (rerunnable); their matches are found again then. Rows of gone listings keep their picture and centre hashes.
DELETE FROM `photo_matches` WHERE `photo_id` IN (SELECT `id` FROM `listing_photos`) OR `matched_photo_id` IN (SELECT `id` FROM `listing_photos`);
--> statement-breakpoint
DELETE FROM `photo_hashes` WHERE `status` = 'hashed' AND `photo_id` IN (SELECT `id` FROM `listing_photos`);
