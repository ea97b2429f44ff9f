-- Deal payments (docs/decisions/029): the first month charged to the platform and held on the deal row
-- until release (a transfer to the lister's Connect account), every change one compare-and-set on
-- deals.version. The Stripe ids let each event find its deal; the amounts are what Stripe confirmed.
ALTER TABLE `deals` ADD `payment_status` text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE `deals` ADD `paid_cents` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `deals` ADD `paid_rent_cents` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `deals` ADD `paid_at` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `held_until` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `payment_intent_id` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `charge_id` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `refund_due_cents` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `deals` ADD `refunded_cents` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `deals` ADD `transfer_id` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `transferred_cents` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `deals` ADD `transfer_reversed_cents` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `deals` ADD `released_at` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `dispute_id` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `dispute_status` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `case_reason` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `problem_kind` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `problem_opened_at` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `moved_in_at` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `cancel_requested_at` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `cancel_decide_by` text;--> statement-breakpoint
ALTER TABLE `deals` ADD `listing_taken` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `deals_payment_intent_idx` ON `deals` (`payment_intent_id`) WHERE payment_intent_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `deals_charge_idx` ON `deals` (`charge_id`) WHERE charge_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `deals_held_idx` ON `deals` (`held_until`) WHERE payment_status = 'held';--> statement-breakpoint
CREATE INDEX `deals_cancel_decide_idx` ON `deals` (`cancel_decide_by`) WHERE cancel_decide_by IS NOT NULL;--> statement-breakpoint
CREATE INDEX `deals_refund_due_idx` ON `deals` (`id`) WHERE refund_due_cents > refunded_cents;--> statement-breakpoint
CREATE INDEX `deals_payment_status_idx` ON `deals` (`payment_status`, `created_at`);--> statement-breakpoint
-- A deal's checkout sessions (Stripe's, or the development test checkout's): one open session is answered again.
CREATE TABLE `deal_checkout_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`deal_id` text NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`url` text,
	`expires_at` text NOT NULL,
	`idempotency_key` text,
	`completed_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`deal_id`) REFERENCES `deals`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `deal_checkout_sessions_deal_idx` ON `deal_checkout_sessions` (`deal_id`, `expires_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `deal_checkout_sessions_key_unique` ON `deal_checkout_sessions` (`user_id`, `idempotency_key`);--> statement-breakpoint
-- Each party's statements of a case (the renter's problem report is the first).
CREATE TABLE `deal_statements` (
	`id` text PRIMARY KEY NOT NULL,
	`deal_id` text NOT NULL,
	`party` text NOT NULL,
	`author_id` text NOT NULL,
	`text` text NOT NULL,
	`photos` text DEFAULT '[]' NOT NULL,
	`at` text NOT NULL,
	FOREIGN KEY (`deal_id`) REFERENCES `deals`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `deal_statements_deal_idx` ON `deal_statements` (`deal_id`, `at`);
