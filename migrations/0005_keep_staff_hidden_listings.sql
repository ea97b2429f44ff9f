-- Before 0004, staff hid a listing by setting its owner-facing `status` to 'hidden', which the owner
-- could undo. A listing whose latest staff edit of `status` was 'hidden', and that is still hidden,
-- moves to staff's own `moderation_status`, which only staff change.
UPDATE `listings` SET `moderation_status` = 'hidden'
WHERE `status` = 'hidden'
  AND (
    SELECT json_extract(`details`, '$.status') FROM `admin_audit`
    WHERE `action` = 'listing_edit' AND `target_id` = `listings`.`id` AND json_extract(`details`, '$.status') IS NOT NULL
    ORDER BY `created_at` DESC LIMIT 1
  ) = 'hidden';
