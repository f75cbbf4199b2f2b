-- A compact, ready-to-serve form of each zone (issue 50): the stored part of what the name server answers (the zone's
-- records in written order and its ALIAS targets' addresses), as JSON text, written by the zone-change pipeline in the
-- transaction of each change. A cold query reads it with the zone's row in one indexed read instead of gathering the
-- records. It is the zone's only while `version` is the zone's `zone_version` (NULL: the zone never changed since it
-- was added); otherwise the name server builds the zone from its records and writes the form again. The SOA, NS and
-- managed records (parking, forwarding) are not in it: they come from the settings of the instance that answers.
CREATE TABLE zone_forms (
  zone_name TEXT PRIMARY KEY REFERENCES domains (name) ON DELETE CASCADE,
  version UUID,
  form TEXT NOT NULL
);
