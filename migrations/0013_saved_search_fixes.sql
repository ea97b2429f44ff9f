-- Saved searches security fixes (docs/decisions/020): who paused a search (the unsubscribe link's Undo
-- resumes only its own pause), and one row per student and query. Rows a duplicate-save race left
-- behind are removed first (the oldest stays), or the unique index could not be built.
DELETE FROM `saved_search_hits` WHERE `search_id` IN (SELECT `id` FROM `saved_searches` WHERE `rowid` NOT IN (SELECT MIN(`rowid`) FROM `saved_searches` GROUP BY `user_id`, `query`));--> statement-breakpoint
DELETE FROM `saved_searches` WHERE `rowid` NOT IN (SELECT MIN(`rowid`) FROM `saved_searches` GROUP BY `user_id`, `query`);--> statement-breakpoint
ALTER TABLE `saved_searches` ADD `paused_by` text;--> statement-breakpoint
CREATE UNIQUE INDEX `saved_searches_user_query_idx` ON `saved_searches` (`user_id`,`query`);
