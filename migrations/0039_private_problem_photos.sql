-- Problem and statement photos (deal_statements.photos) were listing-photo URLs, public and cached for a
-- year; they become private evidence (docs/decisions/032). This migration only rewrites their URLs and
-- records each as evidence with its public key in legacy_key. The cron's copy job (services/evidence.ts,
-- copyLegacyEvidence) copies each file into the private bucket and deletes its public copy; until it has,
-- the evidence route serves the file from its old key, to the same people only.
INSERT OR IGNORE INTO evidence_photos (name, uploader_id, content_type, created_at, kept_at, legacy_key)
SELECT
  substr(p.value, 25),
  s.author_id,
  CASE lower(substr(p.value, -4)) WHEN '.png' THEN 'image/png' WHEN 'webp' THEN 'image/webp' WHEN '.gif' THEN 'image/gif' ELSE 'image/jpeg' END,
  s.at,
  s.at,
  substr(p.value, 16)
FROM deal_statements s, json_each(s.photos) p
WHERE p.value GLOB '/api/v1/images/listings/*';
--> statement-breakpoint
UPDATE deal_statements
SET photos = (
  SELECT json_group_array(v) FROM (
    SELECT CASE WHEN p.value GLOB '/api/v1/images/listings/*' THEN '/api/v1/evidence/' || substr(p.value, 25) ELSE p.value END AS v
    FROM json_each(deal_statements.photos) p
    ORDER BY p.key
  )
)
WHERE photos LIKE '%/api/v1/images/listings/%';
