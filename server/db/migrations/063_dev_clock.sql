-- The test clock (DEV_CONTROLS=true only): how far the service's clock runs ahead of the real one, shared by every
-- instance on this database. One row; an instance that moves it announces the new offset on `namefi_clock`.
CREATE TABLE dev_clock (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  offset_ms BIGINT NOT NULL DEFAULT 0 CHECK (offset_ms >= 0),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
INSERT INTO dev_clock (id, offset_ms) VALUES (1, 0);
