-- School addresses are unique by their canonical form: the local part without a +tag, without case
-- (docs/decisions/032). Of accounts that confirmed the same canonical address, the earliest verified
-- keeps it (and the badge); the others lose their school address and confirm another one if they have it.
UPDATE users
SET school_email_canonical = lower(CASE WHEN instr(school_email, '+') BETWEEN 1 AND instr(school_email, '@') THEN substr(school_email, 1, instr(school_email, '+') - 1) || substr(school_email, instr(school_email, '@')) ELSE school_email END)
WHERE school_email IS NOT NULL
  AND id = (
    SELECT u2.id FROM users u2
    WHERE u2.school_email IS NOT NULL
      AND lower(CASE WHEN instr(u2.school_email, '+') BETWEEN 1 AND instr(u2.school_email, '@') THEN substr(u2.school_email, 1, instr(u2.school_email, '+') - 1) || substr(u2.school_email, instr(u2.school_email, '@')) ELSE u2.school_email END)
        = lower(CASE WHEN instr(users.school_email, '+') BETWEEN 1 AND instr(users.school_email, '@') THEN substr(users.school_email, 1, instr(users.school_email, '+') - 1) || substr(users.school_email, instr(users.school_email, '@')) ELSE users.school_email END)
    ORDER BY u2.school_email_verified_at, u2.id
    LIMIT 1
  );
--> statement-breakpoint
UPDATE users
SET school_email = NULL, school_email_domain = NULL, school_email_verified_at = NULL
WHERE school_email IS NOT NULL AND school_email_canonical IS NULL;
