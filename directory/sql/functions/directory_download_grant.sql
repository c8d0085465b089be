-- A download grant (directory/downloads/services.py), planned once per connection: the
-- subject's lock, its 24-hour window, then the grant when the quota allows. VOLATILE: each
-- statement takes a new snapshot, so the window, read after the lock, sees every grant
-- committed by the lock's previous holder.
CREATE OR REPLACE FUNCTION directory_download_grant(
  p_lock text, p_user bigint, p_ip inet, p_logo uuid, p_asset uuid, p_channel text,
  p_source text, p_now timestamptz, p_quota_since timestamptz, p_repeat_since timestamptz,
  p_limit integer, OUT used bigint, OUT oldest timestamptz, OUT grant_id bigint,
  OUT counted boolean)
  LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_repeats bigint;
BEGIN
  -- directory.downloads.services says why this commit does not wait for the disk.
  PERFORM set_config('synchronous_commit', 'off', true),
          pg_advisory_xact_lock(hashtextextended(p_lock, 0));
  -- One statement per kind of subject, so that each keeps a plan on its own index.
  IF p_user IS NOT NULL THEN
    SELECT count(*), min(d.created_at),
           count(*) FILTER (WHERE d.logo_id = p_logo AND d.created_at > p_repeat_since)
    INTO used, oldest, v_repeats
    FROM directory_download d
    WHERE d.counted AND d.user_id = p_user AND d.created_at > p_quota_since;
  ELSE
    SELECT count(*), min(d.created_at),
           count(*) FILTER (WHERE d.logo_id = p_logo AND d.created_at > p_repeat_since)
    INTO used, oldest, v_repeats
    FROM directory_download d
    WHERE d.counted AND d.user_id IS NULL AND d.ip = p_ip AND d.created_at > p_quota_since;
  END IF;
  IF v_repeats > 0 OR p_limit IS NULL OR used < p_limit THEN
    INSERT INTO directory_download
      (user_id, ip, logo_id, asset_id, channel, source, counted, created_at)
    VALUES (p_user, p_ip, p_logo, p_asset, p_channel, p_source, v_repeats = 0, p_now)
    RETURNING directory_download.id, directory_download.counted INTO grant_id, counted;
    IF counted THEN
      UPDATE directory_logo SET download_count = download_count + 1 WHERE id = p_logo;
    END IF;
  END IF;
END $$;
