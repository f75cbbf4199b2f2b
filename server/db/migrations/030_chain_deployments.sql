-- Where the service's contracts live on each chain. Instances that share a chain (CHAIN_RPC_URL) and a database
-- use one set of contracts: the first to start deploys and records them here, the others read them.
CREATE TABLE IF NOT EXISTS chain_deployments (
  chain_id BIGINT PRIMARY KEY,
  deployment JSONB NOT NULL,
  recorded_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
