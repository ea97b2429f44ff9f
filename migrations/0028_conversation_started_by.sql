-- Who pressed Message: the other participant sees the conversation only once it holds a message.
ALTER TABLE `conversations` ADD `started_by` text;
