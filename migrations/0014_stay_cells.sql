-- Stay cells (issue 15, docs/decisions/021): the months of a listing's dates, and the indexes that walk one
-- cell in each browse order, so "I need it from ... to ..." reads the listings that cover the stay and few others.
ALTER TABLE `listings` ADD `available_from_month` integer GENERATED ALWAYS AS (CAST(substr(available_from, 1, 4) AS INTEGER) * 12 + CAST(substr(available_from, 6, 2) AS INTEGER) - 1) VIRTUAL;--> statement-breakpoint
ALTER TABLE `listings` ADD `available_to_month` integer GENERATED ALWAYS AS (CAST(substr(available_to, 1, 4) AS INTEGER) * 12 + CAST(substr(available_to, 6, 2) AS INTEGER) - 1) VIRTUAL;--> statement-breakpoint
CREATE INDEX `listings_stay_newest_idx` ON `listings` (`available_from_month`,`available_to_month`,`verification_status`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `listings_stay_price_idx` ON `listings` (`available_from_month`,`available_to_month`,`verification_status`,`status`,`monthly_rent`,`id`);--> statement-breakpoint
CREATE INDEX `listings_stay_distance_idx` ON `listings` (`available_from_month`,`available_to_month`,`verification_status`,`status`,`distance_key`,`id`);--> statement-breakpoint
CREATE INDEX `listings_university_stay_newest_idx` ON `listings` (`university_id`,`available_from_month`,`available_to_month`,`verification_status`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `listings_university_stay_price_idx` ON `listings` (`university_id`,`available_from_month`,`available_to_month`,`verification_status`,`status`,`monthly_rent`,`id`);--> statement-breakpoint
CREATE INDEX `listings_university_stay_distance_idx` ON `listings` (`university_id`,`available_from_month`,`available_to_month`,`verification_status`,`status`,`distance_key`,`id`);--> statement-breakpoint
CREATE INDEX `listings_long_stay_newest_idx` ON `listings` (`verification_status`,`status`,`created_at`,`id`) WHERE available_to_month - available_from_month > 12;--> statement-breakpoint
CREATE INDEX `listings_long_stay_price_idx` ON `listings` (`verification_status`,`status`,`monthly_rent`,`id`) WHERE available_to_month - available_from_month > 12;--> statement-breakpoint
CREATE INDEX `listings_long_stay_distance_idx` ON `listings` (`verification_status`,`status`,`distance_key`,`id`) WHERE available_to_month - available_from_month > 12;