-- A record's comment and tags (ours, issue 36): notes signed with the record, never served by the name server.
-- Their rules (500 characters, 10 tags of name or name:value up to 64 characters) live in src/core/dns/record-notes.ts.
ALTER TABLE dns_records ADD COLUMN comment text NOT NULL DEFAULT '';
ALTER TABLE dns_records ADD COLUMN tags text[] NOT NULL DEFAULT '{}';
