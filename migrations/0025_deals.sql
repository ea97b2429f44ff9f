-- The deal (docs/decisions/026): one renter, one listing, one stay, its agreement versions, its
-- append-only events, signing codes and landlord consent links. Every state change of a deal is one
-- compare-and-set on deals.version (decision 013's pattern).
CREATE TABLE `deals` (
	`id` text PRIMARY KEY NOT NULL,
	`listing_id` text,
	`renter_id` text NOT NULL,
	`lister_id` text NOT NULL,
	`conversation_id` text,
	`move_in` text NOT NULL,
	`move_out` text NOT NULL,
	`time_zone` text NOT NULL,
	`status` text DEFAULT 'requested' NOT NULL,
	`status_reason` text,
	`version` integer DEFAULT 0 NOT NULL,
	`expires_at` text,
	`listing_title` text NOT NULL,
	`monthly_rent` integer NOT NULL,
	`fee_percent` real,
	`address` text,
	`unit_type` text,
	`parking` integer,
	`allow_pets` integer,
	`landlord_consent` text DEFAULT 'none' NOT NULL,
	`landlord_name` text,
	`landlord_email` text,
	`landlord_reason` text,
	`agreement_version` integer DEFAULT 0 NOT NULL,
	`renter_signed_at` text,
	`lister_signed_at` text,
	`pdf_key` text,
	`pdf_sha256` text,
	`idempotency_key` text,
	`accepted_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`listing_id`) REFERENCES `listings`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `deals_renter_key_unique` ON `deals` (`renter_id`,`idempotency_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `deals_open_stay_unique` ON `deals` (`renter_id`,`listing_id`,`move_in`,`move_out`) WHERE status IN ('requested', 'accepted', 'signed');--> statement-breakpoint
CREATE INDEX `deals_listing_idx` ON `deals` (`listing_id`,`status`,`move_in`);--> statement-breakpoint
CREATE INDEX `deals_renter_idx` ON `deals` (`renter_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `deals_lister_idx` ON `deals` (`lister_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `deals_status_idx` ON `deals` (`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `deals_expiry_idx` ON `deals` (`expires_at`) WHERE expires_at IS NOT NULL;--> statement-breakpoint
CREATE TABLE `deal_agreements` (
	`deal_id` text NOT NULL,
	`version` integer NOT NULL,
	`template` text NOT NULL,
	`text` text NOT NULL,
	`sha256` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`deal_id`, `version`),
	FOREIGN KEY (`deal_id`) REFERENCES `deals`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `deal_events` (
	`id` text PRIMARY KEY NOT NULL,
	`deal_id` text NOT NULL,
	`type` text NOT NULL,
	`actor_id` text,
	`actor_role` text NOT NULL,
	`at` text NOT NULL,
	`ip` text,
	`user_agent` text,
	`agreement_version` integer,
	`document_sha256` text,
	`details` text,
	FOREIGN KEY (`deal_id`) REFERENCES `deals`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `deal_events_deal_idx` ON `deal_events` (`deal_id`,`at`,`id`);--> statement-breakpoint
-- Append-only: an event is never changed or removed (only with its deal).
CREATE TRIGGER `deal_events_no_update` BEFORE UPDATE ON `deal_events` BEGIN SELECT RAISE(ABORT, 'deal_events are append-only'); END;--> statement-breakpoint
CREATE TABLE `deal_sign_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`deal_id` text NOT NULL,
	`user_id` text NOT NULL,
	`code_hash` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`expires_at` text NOT NULL,
	`consumed_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`deal_id`) REFERENCES `deals`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `deal_sign_codes_party_idx` ON `deal_sign_codes` (`deal_id`,`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `landlord_consent_links` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`deal_id` text NOT NULL,
	`landlord_name` text NOT NULL,
	`landlord_email` text NOT NULL,
	`reason` text,
	`tenant_address` text,
	`expires_at` text NOT NULL,
	`used_at` text,
	`decision` text,
	`decision_reason` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`deal_id`) REFERENCES `deals`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `landlord_consent_links_deal_idx` ON `landlord_consent_links` (`deal_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `messages` ADD `kind` text DEFAULT 'text' NOT NULL;--> statement-breakpoint
ALTER TABLE `messages` ADD `deal_id` text;--> statement-breakpoint
ALTER TABLE `users` ADD `legal_first_name` text;--> statement-breakpoint
ALTER TABLE `users` ADD `legal_last_name` text;--> statement-breakpoint
ALTER TABLE `users` ADD `legal_name_at` text;--> statement-breakpoint
-- The legal name is the account's name as it stood when the identity was verified, on every path
-- that sets `verified` (staff review, staff override, seeds, tests): recorded by the database itself.
CREATE TRIGGER `users_legal_name_on_verify` AFTER UPDATE OF `id_verification_status` ON `users`
WHEN NEW.id_verification_status = 'verified' AND OLD.id_verification_status IS NOT 'verified'
BEGIN
	UPDATE users SET legal_first_name = NEW.first_name, legal_last_name = NEW.last_name, legal_name_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = NEW.id;
END;--> statement-breakpoint
CREATE TRIGGER `users_legal_name_on_insert` AFTER INSERT ON `users`
WHEN NEW.id_verification_status = 'verified'
BEGIN
	UPDATE users SET legal_first_name = NEW.first_name, legal_last_name = NEW.last_name, legal_name_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = NEW.id;
END;--> statement-breakpoint
-- Backfill: today's verified users keep the name they have now.
UPDATE users SET legal_first_name = first_name, legal_last_name = last_name, legal_name_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id_verification_status = 'verified';
