-- Distance bands (issue 15, docs/decisions/021): a listing's distance in whole miles rounded up, and the indexes that
-- walk one band newest first or by price, so "within N miles" in those orders reads the listings within N miles.
ALTER TABLE `listings` ADD `distance_band` integer GENERATED ALWAYS AS (CAST(distance_miles AS INTEGER) + (distance_miles > CAST(distance_miles AS INTEGER))) VIRTUAL;--> statement-breakpoint
CREATE INDEX `listings_distance_band_newest_idx` ON `listings` (`distance_band`,`verification_status`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `listings_distance_band_price_idx` ON `listings` (`distance_band`,`verification_status`,`status`,`monthly_rent`,`id`);--> statement-breakpoint
CREATE INDEX `listings_university_distance_band_newest_idx` ON `listings` (`university_id`,`distance_band`,`verification_status`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `listings_university_distance_band_price_idx` ON `listings` (`university_id`,`distance_band`,`verification_status`,`status`,`monthly_rent`,`id`);