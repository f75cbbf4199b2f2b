import { resolve } from 'node:path';
import { loadConfig } from './config.ts';
import { prepareEarly } from './db/pglite-template.ts';

const config = loadConfig();
// A fresh DATA_DIR is a copy of the PGlite template: begun before the service's modules are loaded, a template a new
// migration made stale is rebuilt while they load rather than after.
if (!config.DATABASE_URL) await prepareEarly(resolve(config.DATA_DIR, 'db'));
const { startService } = await import('./service.ts');
const service = await startService(config);
const database = config.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.DATA_DIR}`;
console.log(`Local Namefi service on ${service.baseUrl} — ${database}, orders take ${config.ORDER_PROCESSING_MS} ms`);
if (service.dns) console.log(`DNS: authoritative answers on ${config.HOST} port ${service.dns.port} (UDP and TCP), DNS over HTTPS at ${service.origin}/dns-query`);
if (service.forwarder) console.log(`URL forwarder on ${service.forwarder.origin} (by Host header; forwarded domains answer ${config.FORWARD_ADDRESSES.join(', ')} at their apex)`);
if (service.chain) {
  const { rpcUrl, chainId, deployment, deployed, timings } = service.chain;
  console.log(
    `Local chain ${chainId} at ${rpcUrl} (${config.CHAIN_RPC_URL ? 'given by CHAIN_RPC_URL' : `anvil, state in ${config.DATA_DIR}/chain`}, ` +
      `up in ${timings.nodeMs + timings.deployMs} ms): registry ${deployment.registry}, credit ${deployment.credit}` +
      `${deployed ? ' (deployed now)' : ''}`,
  );
}

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing in-flight work, closing the database${service.chain ? ' and stopping the chain' : ''}`);
    await service.close();
    process.exit(0);
  });
}
