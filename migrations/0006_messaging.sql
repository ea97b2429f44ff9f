ALTER TABLE `conversations` ADD `user_a_emailed_at` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `user_b_emailed_at` text;--> statement-breakpoint
CREATE INDEX `messages_unread_idx` ON `messages` (`conversation_id`,`sender_id`) WHERE read_at IS NULL;