-- Coordinates of Google places this server resolved, kept at most 30 days (Google's terms; decision 019):
-- one Place Details call per place a month however many owners pick it.
CREATE TABLE `place_cache` (
	`place_id` text PRIMARY KEY NOT NULL,
	`description` text NOT NULL,
	`latitude` real NOT NULL,
	`longitude` real NOT NULL,
	`fetched_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `place_cache_fetched_idx` ON `place_cache` (`fetched_at`);
--> statement-breakpoint
-- Addresses (a SHA-256 of the throttling key) from which an account proved itself (its password or an
-- emailed code): budgets there are the owner's own, which guessers elsewhere cannot spend (decision 010).
CREATE TABLE `known_addresses` (
	`user_id` text NOT NULL,
	`address_hash` text NOT NULL,
	`last_seen_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `address_hash`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `known_addresses_seen_idx` ON `known_addresses` (`last_seen_at`);
