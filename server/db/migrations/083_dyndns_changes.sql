-- DynDNS2 answers `abuse` to a key past 60 changes in an hour (contract: The standard doors). Its changes are its
-- zone-history entries (operation 'dynDnsUpdate', the key in actor.apiKeyId): this index counts them by key and time
-- without reading anyone else's history.
CREATE INDEX zone_history_dyndns_by_key ON zone_history ((((entry::jsonb)->'actor'->>'apiKeyId')), at) WHERE operation = 'dynDnsUpdate';
