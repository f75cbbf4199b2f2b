import { loadConfig } from './config.ts';
import { startService } from './service.ts';

const config = loadConfig();
const service = await startService(config);
const database = config.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.DATA_DIR}`;
console.log(`Local Namefi service on ${service.baseUrl} — ${database}, orders take ${config.ORDER_PROCESSING_MS} ms`);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing in-flight work and closing the database`);
    await service.close();
    process.exit(0);
  });
}
