-- Issue 22: Stripe events applied atomically (a compare-and-set version on the listing's promotion),
-- one live subscription per listing (duplicates refunded), delayed payments, idempotent checkout sessions.
ALTER TABLE `listings` ADD `promotion_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `stripe_subscriptions` ADD `awaiting_payment` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `stripe_subscriptions` ADD `duplicate` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `checkout_sessions` ADD `url` text;--> statement-breakpoint
ALTER TABLE `checkout_sessions` ADD `expires_at` text;--> statement-breakpoint
ALTER TABLE `checkout_sessions` ADD `idempotency_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `checkout_sessions_user_key_unique` ON `checkout_sessions` (`user_id`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `checkout_sessions_listing_idx` ON `checkout_sessions` (`listing_id`,`created_at`);
