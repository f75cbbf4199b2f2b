-- One pending (CREATED or PROCESSING) order item per domain: two concurrent orders for one name cannot both be created.
CREATE UNIQUE INDEX order_items_one_pending_per_domain ON order_items (normalized_domain_name) WHERE status IN ('CREATED', 'PROCESSING');
-- The worker looks for due work by status and start time.
CREATE INDEX orders_status_started ON orders (status, started_at);
