-- Issue 22, items 5, 7 and 10 (hand-written; docs/decisions/015 and 016).
-- The version of a listing staff review: bumped by every owner or staff edit and every review decision,
-- so an approval applies only to the version staff saw (a stale one answers 409).
ALTER TABLE `listings` ADD `revision` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- The rent staff last approved (item 5: a cut of more than a quarter from it goes back to review, so it
-- cannot be lowered step by step). Listings approved before this migration: their rent today.
ALTER TABLE `listings` ADD `approved_rent` integer;
--> statement-breakpoint
UPDATE `listings` SET `approved_rent` = `monthly_rent` WHERE `verification_status` = 'approved';
--> statement-breakpoint
-- The listings generation: stamped on every edge cache entry and compared on every cached read
-- (services/edge-cache.ts: one primary-key read per request), bumped by every listing write (its
-- purgeListingCache). One row. (Not triggers: D1 counts a trigger's rows in meta.changes, which the
-- services read as "how many listings changed".)
CREATE TABLE `cache_generation` (
	`id` integer PRIMARY KEY NOT NULL,
	`generation` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO `cache_generation` (`id`, `generation`) VALUES (1, 0);
