-- "This is fine" is given on one message (decision 015): it covers that message, and later messages
-- from the same sender whose reasons of that kind it had already seen, never a new pattern. Rebuilt
-- with message_id in the key; each old row (a kind quieted in the whole conversation) is kept on the
-- newest message of that kind the user had received when they gave it, and dropped when none is left.
CREATE TABLE `safety_feedback_new` (
	`conversation_id` text NOT NULL,
	`user_id` text NOT NULL,
	`message_id` text NOT NULL,
	`kind` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`conversation_id`, `user_id`, `message_id`, `kind`),
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `safety_feedback_new` (`conversation_id`, `user_id`, `message_id`, `kind`, `created_at`)
SELECT `conversation_id`, `user_id`, `message_id`, `kind`, `created_at` FROM (
	SELECT f.`conversation_id`, f.`user_id`, f.`kind`, f.`created_at`,
		(SELECT m.`id` FROM `messages` m, json_each(m.`safety_flags`) j
			WHERE m.`conversation_id` = f.`conversation_id` AND m.`sender_id` <> f.`user_id` AND m.`created_at` <= f.`created_at`
				AND m.`safety_flags` IS NOT NULL AND json_valid(m.`safety_flags`)
				AND (CASE f.`kind` WHEN 'identity' THEN j.`value` = 'identity_request' WHEN 'link' THEN j.`value` = 'suspicious_link'
					WHEN 'payment' THEN j.`value` IN ('off_platform_payment', 'pay_before_viewing')
					WHEN 'away' THEN j.`value` = 'owner_unavailable' WHEN 'contact' THEN j.`value` = 'moves_off_platform' ELSE 0 END)
			ORDER BY m.`created_at` DESC, m.`id` DESC LIMIT 1) AS `message_id`
	FROM `safety_feedback` f
) WHERE `message_id` IS NOT NULL;
--> statement-breakpoint
DROP TABLE `safety_feedback`;
--> statement-breakpoint
ALTER TABLE `safety_feedback_new` RENAME TO `safety_feedback`;
