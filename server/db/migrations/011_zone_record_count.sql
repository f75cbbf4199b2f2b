-- How many stored records each zone holds, kept by the zone store, so the 10,000-record limit costs one row update, not a count.
ALTER TABLE domains ADD COLUMN record_count INTEGER NOT NULL DEFAULT 0;
UPDATE domains SET record_count = (SELECT count(*) FROM dns_records WHERE dns_records.zone_name = domains.name);
