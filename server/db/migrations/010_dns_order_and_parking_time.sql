-- Records list in the order they were written (a batch keeps its order); one index serves the whole-zone read.
ALTER TABLE dns_records ADD COLUMN seq BIGSERIAL;
CREATE INDEX dns_records_zone_seq ON dns_records (zone_name, seq);
-- When parking last began: the managed parking records are dated from it.
ALTER TABLE domains ADD COLUMN parked_at TIMESTAMPTZ;
