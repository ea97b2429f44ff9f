ALTER TABLE `listings` ADD `available_from` text;--> statement-breakpoint
ALTER TABLE `listings` ADD `available_to` text;--> statement-breakpoint
CREATE INDEX `listings_browse_term_newest_idx` ON `listings` (`lease_term`,`verification_status`,`status`,`created_at`,`id`);