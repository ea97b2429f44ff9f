-- Photos still on a listing are hashed again from the 1/8-scale decode (docs/decisions/036), so every
-- current photo is compared with the same decoder; the backfill queues them (rerunnable) and their matches
-- are found again then. "Not a copy" is kept (by the pictures' bytes); rows of gone listings keep theirs.
DELETE FROM `photo_matches` WHERE `photo_id` IN (SELECT `id` FROM `listing_photos`) OR `matched_photo_id` IN (SELECT `id` FROM `listing_photos`);
--> statement-breakpoint
DELETE FROM `photo_window_bands` WHERE `photo_id` IN (SELECT `id` FROM `listing_photos`);
--> statement-breakpoint
DELETE FROM `photo_hashes` WHERE `status` IN ('hashed', 'tiny', 'flat') AND `photo_id` IN (SELECT `id` FROM `listing_photos`);
