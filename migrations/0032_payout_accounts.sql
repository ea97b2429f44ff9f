-- A lister's Stripe Connect account (one per user): what onboarding created and what Stripe last said of it.
CREATE TABLE `payout_accounts` (
	`user_id` text PRIMARY KEY NOT NULL,
	`stripe_account_id` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`details_submitted` integer DEFAULT false NOT NULL,
	`transfers_active` integer DEFAULT false NOT NULL,
	`payouts_enabled` integer DEFAULT false NOT NULL,
	`requirements_due` text,
	`stripe_updated` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payout_accounts_stripe_account_id_unique` ON `payout_accounts` (`stripe_account_id`);
