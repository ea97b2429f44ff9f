-- Staff's counts without scanning a table (docs/decisions/038): site_counts and signups_by_day are kept
-- by triggers on the counted tables, so every write (a cascade, a seed, a test's fixture included) moves
-- them in its own transaction. Each trigger touches only the counts its row changes (a WHEN, or a
-- WHERE on the change), since D1's `meta.changes` also counts a trigger's writes.
-- Custom migration (`drizzle-kit generate --custom`): triggers and FTS5 tables are not in schema.ts.

-- The counts as the tables hold them now.
INSERT INTO `site_counts` (`name`, `n`) VALUES
  ('users', (SELECT count(*) FROM `users`)),
  ('listings', (SELECT count(*) FROM `listings`)),
  ('listings_pending', (SELECT count(*) FROM `listings` WHERE `verification_status` = 'pending')),
  ('listings_promoted', (SELECT count(*) FROM `listings` WHERE `promotion_end` IS NOT NULL)),
  ('conversations', (SELECT count(*) FROM `conversations`)),
  ('messages', (SELECT count(*) FROM `messages`)),
  ('safety_flags', (SELECT count(*) FROM `conversations` WHERE `safety_flagged_at` IS NOT NULL AND (`safety_reviewed_at` IS NULL OR `safety_reviewed_at` < `safety_flagged_at`))),
  ('verifications_pending', (SELECT count(*) FROM `verification_requests` WHERE `status` = 'pending')),
  ('feedback_open', (SELECT count(*) FROM `feedback` WHERE `archived` = 0)),
  ('reports_open', (SELECT count(*) FROM `reports` WHERE `status` = 'open')),
  ('deal_held_cents', (SELECT coalesce(sum(CASE WHEN `payment_status` IN ('held', 'disputed', 'release_failed') THEN `paid_rent_cents` - `refund_due_cents` ELSE 0 END), 0) FROM `deals`)),
  ('deal_released_cents', (SELECT coalesce(sum(CASE WHEN `payment_status` <> 'none' THEN `transferred_cents` - `transfer_reversed_cents` ELSE 0 END), 0) FROM `deals`)),
  ('deal_refunded_cents', (SELECT coalesce(sum(CASE WHEN `payment_status` <> 'none' THEN max(`refund_due_cents`, `refunded_cents`) ELSE 0 END), 0) FROM `deals`)),
  ('deal_open_cases', (SELECT count(*) FROM `deals` WHERE `payment_status` <> 'none' AND (`status` = 'disputed' OR `payment_status` = 'release_failed' OR `case_reason` IS NOT NULL)));
--> statement-breakpoint
INSERT INTO `site_counts` (`name`, `n`) SELECT 'deals:' || `status`, count(*) FROM `deals` GROUP BY `status`;
--> statement-breakpoint
INSERT INTO `signups_by_day` (`day`, `n`) SELECT substr(`created_at`, 1, 10), count(*) FROM `users` GROUP BY substr(`created_at`, 1, 10);
--> statement-breakpoint

-- Users: the total and the day each account was made.
CREATE TRIGGER `site_counts_users_insert` AFTER INSERT ON `users` BEGIN
  UPDATE `site_counts` SET `n` = `n` + 1 WHERE `name` = 'users';
  INSERT OR IGNORE INTO `signups_by_day` (`day`, `n`) VALUES (substr(new.created_at, 1, 10), 0);
  UPDATE `signups_by_day` SET `n` = `n` + 1 WHERE `day` = substr(new.created_at, 1, 10);
END;
--> statement-breakpoint
CREATE TRIGGER `site_counts_users_delete` AFTER DELETE ON `users` BEGIN
  UPDATE `site_counts` SET `n` = `n` - 1 WHERE `name` = 'users';
  UPDATE `signups_by_day` SET `n` = `n` - 1 WHERE `day` = substr(old.created_at, 1, 10);
END;
--> statement-breakpoint

-- Listings: the total, the review queue (Pending) and the Promoted tab (promotion_end set).
CREATE TRIGGER `site_counts_listings_insert` AFTER INSERT ON `listings` BEGIN
  UPDATE `site_counts` SET `n` = `n` + 1 WHERE `name` = 'listings';
  UPDATE `site_counts` SET `n` = `n` + 1 WHERE `name` = 'listings_pending' AND new.verification_status = 'pending';
  UPDATE `site_counts` SET `n` = `n` + 1 WHERE `name` = 'listings_promoted' AND new.promotion_end IS NOT NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `site_counts_listings_delete` AFTER DELETE ON `listings` BEGIN
  UPDATE `site_counts` SET `n` = `n` - 1 WHERE `name` = 'listings';
  UPDATE `site_counts` SET `n` = `n` - 1 WHERE `name` = 'listings_pending' AND old.verification_status = 'pending';
  UPDATE `site_counts` SET `n` = `n` - 1 WHERE `name` = 'listings_promoted' AND old.promotion_end IS NOT NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `site_counts_listings_update` AFTER UPDATE OF `verification_status`, `promotion_end` ON `listings`
WHEN (old.verification_status = 'pending') IS NOT (new.verification_status = 'pending') OR (old.promotion_end IS NULL) IS NOT (new.promotion_end IS NULL)
BEGIN
  UPDATE `site_counts` SET `n` = `n` + (new.verification_status = 'pending') - (old.verification_status = 'pending')
    WHERE `name` = 'listings_pending' AND (old.verification_status = 'pending') IS NOT (new.verification_status = 'pending');
  UPDATE `site_counts` SET `n` = `n` + (new.promotion_end IS NOT NULL) - (old.promotion_end IS NOT NULL)
    WHERE `name` = 'listings_promoted' AND (old.promotion_end IS NULL) IS NOT (new.promotion_end IS NULL);
END;
--> statement-breakpoint

-- Conversations: the total and the Safety queue (flagged since the last review).
CREATE TRIGGER `site_counts_conversations_insert` AFTER INSERT ON `conversations` BEGIN
  UPDATE `site_counts` SET `n` = `n` + 1 WHERE `name` = 'conversations';
  UPDATE `site_counts` SET `n` = `n` + 1 WHERE `name` = 'safety_flags'
    AND new.safety_flagged_at IS NOT NULL AND (new.safety_reviewed_at IS NULL OR new.safety_reviewed_at < new.safety_flagged_at);
END;
--> statement-breakpoint
CREATE TRIGGER `site_counts_conversations_delete` AFTER DELETE ON `conversations` BEGIN
  UPDATE `site_counts` SET `n` = `n` - 1 WHERE `name` = 'conversations';
  UPDATE `site_counts` SET `n` = `n` - 1 WHERE `name` = 'safety_flags'
    AND old.safety_flagged_at IS NOT NULL AND (old.safety_reviewed_at IS NULL OR old.safety_reviewed_at < old.safety_flagged_at);
END;
--> statement-breakpoint
CREATE TRIGGER `site_counts_conversations_update` AFTER UPDATE OF `safety_flagged_at`, `safety_reviewed_at` ON `conversations`
WHEN (old.safety_flagged_at IS NOT NULL AND (old.safety_reviewed_at IS NULL OR old.safety_reviewed_at < old.safety_flagged_at))
  IS NOT (new.safety_flagged_at IS NOT NULL AND (new.safety_reviewed_at IS NULL OR new.safety_reviewed_at < new.safety_flagged_at))
BEGIN
  UPDATE `site_counts` SET `n` = `n` + CASE WHEN new.safety_flagged_at IS NOT NULL AND (new.safety_reviewed_at IS NULL OR new.safety_reviewed_at < new.safety_flagged_at) THEN 1 ELSE -1 END
    WHERE `name` = 'safety_flags';
END;
--> statement-breakpoint

-- Messages: the total.
CREATE TRIGGER `site_counts_messages_insert` AFTER INSERT ON `messages` BEGIN
  UPDATE `site_counts` SET `n` = `n` + 1 WHERE `name` = 'messages';
END;
--> statement-breakpoint
CREATE TRIGGER `site_counts_messages_delete` AFTER DELETE ON `messages` BEGIN
  UPDATE `site_counts` SET `n` = `n` - 1 WHERE `name` = 'messages';
END;
--> statement-breakpoint

-- Identity documents waiting for review.
CREATE TRIGGER `site_counts_verification_insert` AFTER INSERT ON `verification_requests` WHEN new.status = 'pending' BEGIN
  UPDATE `site_counts` SET `n` = `n` + 1 WHERE `name` = 'verifications_pending';
END;
--> statement-breakpoint
CREATE TRIGGER `site_counts_verification_delete` AFTER DELETE ON `verification_requests` WHEN old.status = 'pending' BEGIN
  UPDATE `site_counts` SET `n` = `n` - 1 WHERE `name` = 'verifications_pending';
END;
--> statement-breakpoint
CREATE TRIGGER `site_counts_verification_update` AFTER UPDATE OF `status` ON `verification_requests`
WHEN (old.status = 'pending') IS NOT (new.status = 'pending')
BEGIN
  UPDATE `site_counts` SET `n` = `n` + (new.status = 'pending') - (old.status = 'pending') WHERE `name` = 'verifications_pending';
END;
--> statement-breakpoint

-- Feedback not archived.
CREATE TRIGGER `site_counts_feedback_insert` AFTER INSERT ON `feedback` WHEN new.archived = 0 BEGIN
  UPDATE `site_counts` SET `n` = `n` + 1 WHERE `name` = 'feedback_open';
END;
--> statement-breakpoint
CREATE TRIGGER `site_counts_feedback_delete` AFTER DELETE ON `feedback` WHEN old.archived = 0 BEGIN
  UPDATE `site_counts` SET `n` = `n` - 1 WHERE `name` = 'feedback_open';
END;
--> statement-breakpoint
CREATE TRIGGER `site_counts_feedback_update` AFTER UPDATE OF `archived` ON `feedback`
WHEN (old.archived = 0) IS NOT (new.archived = 0)
BEGIN
  UPDATE `site_counts` SET `n` = `n` + (new.archived = 0) - (old.archived = 0) WHERE `name` = 'feedback_open';
END;
--> statement-breakpoint

-- Reports not resolved.
CREATE TRIGGER `site_counts_reports_insert` AFTER INSERT ON `reports` WHEN new.status = 'open' BEGIN
  UPDATE `site_counts` SET `n` = `n` + 1 WHERE `name` = 'reports_open';
END;
--> statement-breakpoint
CREATE TRIGGER `site_counts_reports_delete` AFTER DELETE ON `reports` WHEN old.status = 'open' BEGIN
  UPDATE `site_counts` SET `n` = `n` - 1 WHERE `name` = 'reports_open';
END;
--> statement-breakpoint
CREATE TRIGGER `site_counts_reports_update` AFTER UPDATE OF `status` ON `reports`
WHEN (old.status = 'open') IS NOT (new.status = 'open')
BEGIN
  UPDATE `site_counts` SET `n` = `n` + (new.status = 'open') - (old.status = 'open') WHERE `name` = 'reports_open';
END;
--> statement-breakpoint

-- Deals: one count per status (`deals:<status>`) and the money of the dashboard (as services/admin's
-- stats read it before: held, released, refunded, open cases; rows without a payment count nothing).
CREATE TRIGGER `site_counts_deals_insert` AFTER INSERT ON `deals` BEGIN
  INSERT OR IGNORE INTO `site_counts` (`name`, `n`) VALUES ('deals:' || new.status, 0);
  UPDATE `site_counts` SET `n` = `n` + 1 WHERE `name` = 'deals:' || new.status;
  UPDATE `site_counts` SET `n` = `n` + CASE `name`
      WHEN 'deal_held_cents' THEN CASE WHEN new.payment_status IN ('held', 'disputed', 'release_failed') THEN new.paid_rent_cents - new.refund_due_cents ELSE 0 END
      WHEN 'deal_released_cents' THEN CASE WHEN new.payment_status <> 'none' THEN new.transferred_cents - new.transfer_reversed_cents ELSE 0 END
      WHEN 'deal_refunded_cents' THEN CASE WHEN new.payment_status <> 'none' THEN max(new.refund_due_cents, new.refunded_cents) ELSE 0 END
      ELSE CASE WHEN new.payment_status <> 'none' AND (new.status = 'disputed' OR new.payment_status = 'release_failed' OR new.case_reason IS NOT NULL) THEN 1 ELSE 0 END END
    WHERE `name` IN ('deal_held_cents', 'deal_released_cents', 'deal_refunded_cents', 'deal_open_cases') AND new.payment_status <> 'none';
END;
--> statement-breakpoint
CREATE TRIGGER `site_counts_deals_delete` AFTER DELETE ON `deals` BEGIN
  UPDATE `site_counts` SET `n` = `n` - 1 WHERE `name` = 'deals:' || old.status;
  UPDATE `site_counts` SET `n` = `n` - CASE `name`
      WHEN 'deal_held_cents' THEN CASE WHEN old.payment_status IN ('held', 'disputed', 'release_failed') THEN old.paid_rent_cents - old.refund_due_cents ELSE 0 END
      WHEN 'deal_released_cents' THEN CASE WHEN old.payment_status <> 'none' THEN old.transferred_cents - old.transfer_reversed_cents ELSE 0 END
      WHEN 'deal_refunded_cents' THEN CASE WHEN old.payment_status <> 'none' THEN max(old.refund_due_cents, old.refunded_cents) ELSE 0 END
      ELSE CASE WHEN old.payment_status <> 'none' AND (old.status = 'disputed' OR old.payment_status = 'release_failed' OR old.case_reason IS NOT NULL) THEN 1 ELSE 0 END END
    WHERE `name` IN ('deal_held_cents', 'deal_released_cents', 'deal_refunded_cents', 'deal_open_cases') AND old.payment_status <> 'none';
END;
--> statement-breakpoint
CREATE TRIGGER `site_counts_deals_status` AFTER UPDATE OF `status` ON `deals` WHEN old.status IS NOT new.status BEGIN
  UPDATE `site_counts` SET `n` = `n` - 1 WHERE `name` = 'deals:' || old.status;
  INSERT OR IGNORE INTO `site_counts` (`name`, `n`) VALUES ('deals:' || new.status, 0);
  UPDATE `site_counts` SET `n` = `n` + 1 WHERE `name` = 'deals:' || new.status;
END;
--> statement-breakpoint
-- Each money figure moves by the new row's share less the old row's, only where it changed.
CREATE TRIGGER `site_counts_deals_money` AFTER UPDATE OF `status`, `payment_status`, `case_reason`, `paid_rent_cents`, `refund_due_cents`, `refunded_cents`, `transferred_cents`, `transfer_reversed_cents` ON `deals`
WHEN old.payment_status <> 'none' OR new.payment_status <> 'none'
BEGIN
  UPDATE `site_counts` SET `n` = `n`
      + CASE WHEN new.payment_status IN ('held', 'disputed', 'release_failed') THEN new.paid_rent_cents - new.refund_due_cents ELSE 0 END
      - CASE WHEN old.payment_status IN ('held', 'disputed', 'release_failed') THEN old.paid_rent_cents - old.refund_due_cents ELSE 0 END
    WHERE `name` = 'deal_held_cents'
      AND (CASE WHEN new.payment_status IN ('held', 'disputed', 'release_failed') THEN new.paid_rent_cents - new.refund_due_cents ELSE 0 END)
       <> (CASE WHEN old.payment_status IN ('held', 'disputed', 'release_failed') THEN old.paid_rent_cents - old.refund_due_cents ELSE 0 END);
  UPDATE `site_counts` SET `n` = `n`
      + CASE WHEN new.payment_status <> 'none' THEN new.transferred_cents - new.transfer_reversed_cents ELSE 0 END
      - CASE WHEN old.payment_status <> 'none' THEN old.transferred_cents - old.transfer_reversed_cents ELSE 0 END
    WHERE `name` = 'deal_released_cents'
      AND (CASE WHEN new.payment_status <> 'none' THEN new.transferred_cents - new.transfer_reversed_cents ELSE 0 END)
       <> (CASE WHEN old.payment_status <> 'none' THEN old.transferred_cents - old.transfer_reversed_cents ELSE 0 END);
  UPDATE `site_counts` SET `n` = `n`
      + CASE WHEN new.payment_status <> 'none' THEN max(new.refund_due_cents, new.refunded_cents) ELSE 0 END
      - CASE WHEN old.payment_status <> 'none' THEN max(old.refund_due_cents, old.refunded_cents) ELSE 0 END
    WHERE `name` = 'deal_refunded_cents'
      AND (CASE WHEN new.payment_status <> 'none' THEN max(new.refund_due_cents, new.refunded_cents) ELSE 0 END)
       <> (CASE WHEN old.payment_status <> 'none' THEN max(old.refund_due_cents, old.refunded_cents) ELSE 0 END);
  UPDATE `site_counts` SET `n` = `n`
      + CASE WHEN new.payment_status <> 'none' AND (new.status = 'disputed' OR new.payment_status = 'release_failed' OR new.case_reason IS NOT NULL) THEN 1 ELSE 0 END
      - CASE WHEN old.payment_status <> 'none' AND (old.status = 'disputed' OR old.payment_status = 'release_failed' OR old.case_reason IS NOT NULL) THEN 1 ELSE 0 END
    WHERE `name` = 'deal_open_cases'
      AND (CASE WHEN new.payment_status <> 'none' AND (new.status = 'disputed' OR new.payment_status = 'release_failed' OR new.case_reason IS NOT NULL) THEN 1 ELSE 0 END)
       <> (CASE WHEN old.payment_status <> 'none' AND (old.status = 'disputed' OR old.payment_status = 'release_failed' OR old.case_reason IS NOT NULL) THEN 1 ELSE 0 END);
END;
--> statement-breakpoint

-- Staff's user search (docs/decisions/038): names and email words, prefix-matched through FTS5 (external
-- content, as listings_fts), walked newest account first by rowid.
CREATE VIRTUAL TABLE `users_fts` USING fts5(first_name, last_name, email, content='users', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `users_fts` (rowid, first_name, last_name, email) SELECT rowid, first_name, last_name, email FROM `users`;
--> statement-breakpoint
CREATE TRIGGER `users_fts_insert` AFTER INSERT ON `users` BEGIN
  INSERT INTO `users_fts` (rowid, first_name, last_name, email) VALUES (new.rowid, new.first_name, new.last_name, new.email);
END;
--> statement-breakpoint
CREATE TRIGGER `users_fts_delete` AFTER DELETE ON `users` BEGIN
  INSERT INTO `users_fts` (`users_fts`, rowid, first_name, last_name, email) VALUES ('delete', old.rowid, old.first_name, old.last_name, old.email);
END;
--> statement-breakpoint
CREATE TRIGGER `users_fts_update` AFTER UPDATE OF first_name, last_name, email ON `users` BEGIN
  INSERT INTO `users_fts` (`users_fts`, rowid, first_name, last_name, email) VALUES ('delete', old.rowid, old.first_name, old.last_name, old.email);
  INSERT INTO `users_fts` (rowid, first_name, last_name, email) VALUES (new.rowid, new.first_name, new.last_name, new.email);
END;
