-- Issue 26: a recipient's "This is fine" under a safety notice, per conversation, user and notice kind
-- (identity | link | payment | away | contact). Their view of the conversation's messages then has no
-- notice of that kind; staff read the rows beside the reasons in the Safety queue.
CREATE TABLE `safety_feedback` (
	`conversation_id` text NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`conversation_id`, `user_id`, `kind`),
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
