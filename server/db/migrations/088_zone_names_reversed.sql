-- Whether any zone of this service lies below a zone, in one indexed range read (server/dns-server/zone-rows.ts):
-- the names below `example.com` are those whose reversed name starts with `moc.elpmaxe.`. A zone with none below
-- holds every name under it, so the name server answers random names under a known zone without asking the database
-- again for each (issue 50's flood of random names).
CREATE INDEX IF NOT EXISTS domains_reversed_name ON domains ((reverse(name) COLLATE "C"));
