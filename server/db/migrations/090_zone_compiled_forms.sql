-- A zone's form compiled for the name server's UDP threads (issue 50: a cold zone answered from a ready-to-serve
-- form): every record set of every name already in wire form, with the SOA, NS and managed records of the settings
-- it was compiled for (server/dns-server/thread-zone.ts). Written by the zone-change pipeline beside `form`, in the
-- transaction of each change; `compiled_for` names the settings and the form's layout (compiled-form.ts), so an
-- instance answering with other settings leaves it alone and builds the zone from `form` as before. NULL: the zone is
-- not one a thread can answer whole (signed, a wildcard, a delegation, …) or was written before this migration.
ALTER TABLE zone_forms ADD COLUMN compiled BYTEA, ADD COLUMN compiled_for TEXT;
