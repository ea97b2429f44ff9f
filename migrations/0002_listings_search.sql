-- Full-text search over listing title, description and address (SQLite FTS5, supported by D1).
-- Custom migration created with `drizzle-kit generate --custom`: drizzle's schema cannot describe
-- virtual tables. An external-content index kept in step with `listings` by triggers.
CREATE VIRTUAL TABLE `listings_fts` USING fts5(title, description, address, content='listings', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `listings_fts` (rowid, title, description, address) SELECT rowid, title, description, address FROM `listings`;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_insert` AFTER INSERT ON `listings` BEGIN
  INSERT INTO `listings_fts` (rowid, title, description, address) VALUES (new.rowid, new.title, new.description, new.address);
END;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_delete` AFTER DELETE ON `listings` BEGIN
  INSERT INTO `listings_fts` (`listings_fts`, rowid, title, description, address) VALUES ('delete', old.rowid, old.title, old.description, old.address);
END;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_update` AFTER UPDATE OF title, description, address ON `listings` BEGIN
  INSERT INTO `listings_fts` (`listings_fts`, rowid, title, description, address) VALUES ('delete', old.rowid, old.title, old.description, old.address);
  INSERT INTO `listings_fts` (rowid, title, description, address) VALUES (new.rowid, new.title, new.description, new.address);
END;
