-- A deal's problem report was stored as the renter's first statement (decision 029); it is now marked as the
-- report (decision 035), so each party's one statement is counted apart from it. The report was written at the
-- same instant the problem was opened.
UPDATE `deal_statements` SET `report` = 1
WHERE `party` = 'renter' AND EXISTS (
  SELECT 1 FROM `deals` d WHERE d.`id` = `deal_statements`.`deal_id` AND d.`problem_opened_at` = `deal_statements`.`at`
);
