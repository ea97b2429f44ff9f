-- The page a feedback message was sent from (a path, without its query), shown to staff.
ALTER TABLE `feedback` ADD `page` text;
