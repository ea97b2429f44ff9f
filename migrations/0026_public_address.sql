-- The public form of a listing's address (docs/decisions/024): the street and area without house
-- number or unit, computed by the worker (contract/address.ts publicAddress) on every create and edit.
-- Rows from before this migration start NULL and are filled by the worker's rerunnable backfill
-- (services/listings backfillPublicAddresses: the cron and the dev seed), since SQL cannot parse an
-- address; until then every read computes it from the address, so the full one never shows.
ALTER TABLE `listings` ADD `address_public` text;
--> statement-breakpoint
-- Search matches only the public form: listings_fts is rebuilt over address_public (external content
-- reads the column of that name), so a search for a house number finds nothing.
DROP TRIGGER IF EXISTS `listings_fts_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `listings_fts_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `listings_fts_update`;
--> statement-breakpoint
DROP TABLE IF EXISTS `listings_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `listings_fts` USING fts5(title, description, address_public, content='listings', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `listings_fts` (rowid, title, description, address_public) SELECT rowid, title, description, address_public FROM `listings`;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_insert` AFTER INSERT ON `listings` BEGIN
  INSERT INTO `listings_fts` (rowid, title, description, address_public) VALUES (new.rowid, new.title, new.description, new.address_public);
END;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_delete` AFTER DELETE ON `listings` BEGIN
  INSERT INTO `listings_fts` (`listings_fts`, rowid, title, description, address_public) VALUES ('delete', old.rowid, old.title, old.description, old.address_public);
END;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_update` AFTER UPDATE OF title, description, address_public ON `listings` BEGIN
  INSERT INTO `listings_fts` (`listings_fts`, rowid, title, description, address_public) VALUES ('delete', old.rowid, old.title, old.description, old.address_public);
  INSERT INTO `listings_fts` (rowid, title, description, address_public) VALUES (new.rowid, new.title, new.description, new.address_public);
END;
