-- Fair preferences (issue 15, docs/decisions/018): a gender preference is allowed only where the renter
-- shares a living space with the lister. A whole unit (studio, 1x1, 1x2: any unit type outside
-- SHARED_UNIT_TYPES in worker/contract/policies.ts) is open to everyone, so it carries no preference.
UPDATE `listings` SET `gender_preference` = 'no_preference'
WHERE `gender_preference` != 'no_preference'
  AND `unit_type` NOT IN ('2x1', '2x2', '3x1', '3x2', '3x3', '4x2', '4x3', '4x4', 'other');
