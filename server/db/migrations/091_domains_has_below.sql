-- Whether any zone of this service lies below a zone, kept on the zone's row (issue 50: a cold zone in one indexed
-- read). Migration 088 answered it with a range probe of the reversed names at every read of a cold zone, ~15-20 µs
-- of PGlite's time a zone; a registration or a deletion now sets it for the names above, in its own transaction, and
-- the read takes the column. The reversed-name index stays: the triggers below probe it.
ALTER TABLE domains ADD COLUMN has_below BOOLEAN NOT NULL DEFAULT false;

CREATE FUNCTION domains_below_exists(zone TEXT) RETURNS BOOLEAN LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM domains c WHERE reverse(c.name) COLLATE "C" > reverse(zone) || '.' AND reverse(c.name) COLLATE "C" < reverse(zone) || '/')
$$;

-- The names above `name` (`b.example.com` → `example.com`, `com`): the zones a registration or deletion concerns.
CREATE FUNCTION domains_names_above(name TEXT) RETURNS TEXT[] LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(array_agg(array_to_string(labels[i:], '.')), '{}') FROM (SELECT string_to_array(name, '.') AS labels) l, generate_series(2, cardinality(labels)) i
$$;

-- A zone registered below zones already held may have zones below it already (registered before it). Two
-- registrations at once, a zone and one below it, on PostgreSQL: neither sees the other's row before it commits, so
-- each takes a lock on its own name and a shared one on each name above before looking (released at commit): the
-- second waits for the first and sees it. Zones registered side by side share only the locks above them.
CREATE FUNCTION domains_has_below_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_advisory_xact_lock(hashtextextended(NEW.name, 91)); PERFORM pg_advisory_xact_lock_shared(hashtextextended(above, 91)) FROM unnest(domains_names_above(NEW.name)) AS above; NEW.has_below := domains_below_exists(NEW.name); RETURN NEW; END $$;

-- Registered: every zone above has one below. Deleted: each zone above asks again.
-- (Each function on one line: the migrator splits statements at a semicolon that ends a line.)
CREATE FUNCTION domains_has_below_above() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF TG_OP = 'INSERT' THEN UPDATE domains SET has_below = true WHERE name = ANY (domains_names_above(NEW.name)) AND NOT has_below; ELSE UPDATE domains SET has_below = domains_below_exists(name) WHERE name = ANY (domains_names_above(OLD.name)) AND has_below; END IF; RETURN NULL; END $$;

CREATE TRIGGER domains_has_below_insert BEFORE INSERT ON domains FOR EACH ROW EXECUTE FUNCTION domains_has_below_insert();
CREATE TRIGGER domains_has_below_above AFTER INSERT OR DELETE ON domains FOR EACH ROW EXECUTE FUNCTION domains_has_below_above();

UPDATE domains d SET has_below = true WHERE domains_below_exists(d.name);
