-- A fresh random value on every change of a zone (records or parking), in the same transaction: a reader may keep a
-- zone in memory for as long as the value is unchanged. Random, so a rolled-back change never hands its value on.
ALTER TABLE domains ADD COLUMN zone_version UUID;
