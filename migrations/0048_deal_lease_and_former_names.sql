ALTER TABLE `deals` ADD `lease_url` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `lease_attached_at` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `former_renter_first_name` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `former_renter_last_name` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `former_lister_first_name` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `former_lister_last_name` text;