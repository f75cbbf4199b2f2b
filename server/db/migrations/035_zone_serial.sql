-- The SOA serial of each zone: it grows by one whenever zone_version changes (every write of records or parking),
-- in the same transaction, so every instance answers the same serial for the same zone contents. Each change, and
-- each zone added or removed, is also announced on the channel namefi_zone (delivered at commit) so that name
-- servers holding zones in memory drop them at once.
ALTER TABLE domains ADD COLUMN zone_serial BIGINT NOT NULL DEFAULT 1;
CREATE FUNCTION domains_bump_zone_serial() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.zone_version IS DISTINCT FROM OLD.zone_version THEN NEW.zone_serial := OLD.zone_serial + 1; PERFORM pg_notify('namefi_zone', NEW.name); END IF; RETURN NEW; END $$;
CREATE TRIGGER domains_zone_serial BEFORE UPDATE OF zone_version ON domains FOR EACH ROW EXECUTE FUNCTION domains_bump_zone_serial();
CREATE FUNCTION domains_zone_notify() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('namefi_zone', COALESCE(NEW.name, OLD.name)); RETURN NULL; END $$;
CREATE TRIGGER domains_zone_added_or_removed AFTER INSERT OR DELETE OR UPDATE OF parked ON domains FOR EACH ROW EXECUTE FUNCTION domains_zone_notify();
