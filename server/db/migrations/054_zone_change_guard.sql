-- Every change of a zone passes one pipeline (server/zones/pipeline.ts), which moves the serial once and records the
-- change's history entry once. The database keeps that rule too: a new zone_version (which moves the serial and
-- announces the zone, migration 035) is accepted only from the statement the pipeline runs, which sets a single-use
-- token naming the zone for this transaction; the trigger spends it. Any other writer of zone_version is refused, so a
-- change that bypasses the pipeline fails instead of leaving a serial without a history entry.
CREATE OR REPLACE FUNCTION domains_bump_zone_serial() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.zone_version IS DISTINCT FROM OLD.zone_version THEN IF current_setting('namefi.zone_change', true) IS DISTINCT FROM NEW.name THEN RAISE EXCEPTION 'zone % changed outside the zone-change pipeline', NEW.name USING ERRCODE = 'check_violation'; END IF; PERFORM set_config('namefi.zone_change', '', true); NEW.zone_serial := OLD.zone_serial + 1; PERFORM pg_notify('namefi_zone', NEW.name); END IF; RETURN NEW; END $$;
