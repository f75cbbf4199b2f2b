-- The SOA serial of each zone: it grows by one whenever zone_version changes (every write of records or parking),
-- in the same transaction, so every instance answers the same serial for the same zone contents.
ALTER TABLE domains ADD COLUMN zone_serial BIGINT NOT NULL DEFAULT 1;
CREATE FUNCTION domains_bump_zone_serial() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.zone_version IS DISTINCT FROM OLD.zone_version THEN NEW.zone_serial := OLD.zone_serial + 1; END IF; RETURN NEW; END $$;
CREATE TRIGGER domains_zone_serial BEFORE UPDATE OF zone_version ON domains FOR EACH ROW EXECUTE FUNCTION domains_bump_zone_serial();
