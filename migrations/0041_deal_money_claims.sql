CREATE TABLE `deal_stripe_inbox` (
	`event_id` text PRIMARY KEY NOT NULL,
	`deal_id` text NOT NULL,
	`type` text NOT NULL,
	`facts` text NOT NULL,
	`received_at` text NOT NULL,
	FOREIGN KEY (`deal_id`) REFERENCES `deals`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `deal_stripe_inbox_deal_idx` ON `deal_stripe_inbox` (`deal_id`,`received_at`);--> statement-breakpoint
CREATE TABLE `landlord_declines` (
	`listing_id` text PRIMARY KEY NOT NULL,
	`landlord_email` text NOT NULL,
	`deal_id` text NOT NULL,
	`declined_at` text NOT NULL,
	FOREIGN KEY (`listing_id`) REFERENCES `listings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `deal_sign_codes` ADD `agreement_version` integer;--> statement-breakpoint
ALTER TABLE `deal_statements` ADD `report` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `deals` ADD `claim_id` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `claim_op` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `claim_input` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `claim_at` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `reconciled_at` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `decision_by` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `decision_reason` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `decided_at` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `request_emailed_at` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `request_summary_due` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `deals` ADD `request_summarized_at` text;--> statement-breakpoint
CREATE INDEX `deals_claim_idx` ON `deals` (`claim_at`) WHERE claim_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `deals_reconcile_idx` ON `deals` (`updated_at`) WHERE payment_status <> 'none' AND (reconciled_at IS NULL OR reconciled_at < updated_at);--> statement-breakpoint
CREATE INDEX `deals_request_email_idx` ON `deals` (`renter_id`,`listing_id`,`request_emailed_at`) WHERE request_emailed_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX `deals_request_summary_idx` ON `deals` (`lister_id`) WHERE request_summary_due = 1;