ALTER TABLE `messages` ADD `client_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `messages_sender_client_key_unique` ON `messages` (`sender_id`,`client_key`);
