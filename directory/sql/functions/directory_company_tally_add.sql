-- Adds `signs` (1 a company in, -1 out) to directory_company_tally, a (sector, province)
-- pair at a time in key order so that two writers never wait for each other in opposite
-- orders; a pair left with none goes.
CREATE OR REPLACE FUNCTION directory_company_tally_add(
  sectors bigint[], provinces text[], signs integer[]) RETURNS void
  LANGUAGE plpgsql AS $$
DECLARE
  grp record;
  remaining integer;
BEGIN
  FOR grp IN
    SELECT d.sector_id, d.province_fold, sum(d.sign)::integer AS delta
    FROM unnest(sectors, provinces, signs) AS d(sector_id, province_fold, sign)
    GROUP BY d.sector_id, d.province_fold
    HAVING sum(d.sign) <> 0
    ORDER BY d.sector_id, d.province_fold
  LOOP
    INSERT INTO directory_company_tally AS t (sector_id, province_fold, size)
      VALUES (grp.sector_id, grp.province_fold, grp.delta)
    ON CONFLICT (sector_id, province_fold) DO UPDATE SET size = t.size + excluded.size
    RETURNING size INTO remaining;
    IF remaining = 0 THEN
      DELETE FROM directory_company_tally
        WHERE sector_id IS NOT DISTINCT FROM grp.sector_id
          AND province_fold IS NOT DISTINCT FROM grp.province_fold;
    END IF;
  END LOOP;
END $$;
