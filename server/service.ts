import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { createApp } from './app.ts';
import { handlers } from './routes/index.ts';
import { mountDocs } from './routes/docs.ts';
import { databaseOwnership } from './ownership/database-ownership.ts';
import { startOrderWorker } from './orders/worker.ts';
import { serviceHeaders } from '../src/core/headers.ts';
import type { Services } from './http/context.ts';

export interface RunningService {
  /** e.g. http://127.0.0.1:8787 */
  origin: string;
  /** origin + /v-next */
  baseUrl: string;
  services: Services;
  close(): Promise<void>;
}

/** Opens the database, migrates it, serves HTTP and starts the order worker. */
export async function startService(config: Config): Promise<RunningService> {
  const db = await openDatabase({ dataDir: resolve(config.DATA_DIR, 'db'), url: config.DATABASE_URL });
  await migrate(db);
  let wake = () => {};
  const services: Services = {
    config,
    db,
    ownership: databaseOwnership(db),
    headers: serviceHeaders(config.HEADER_PREFIX),
    now: () => new Date(),
    notifyOrders: () => wake(),
  };
  const app = createApp(services, handlers, (a) => mountDocs(a, services.headers));
  const worker = startOrderWorker(services);
  wake = worker.wake;
  const server: ServerType = await new Promise((ready) => {
    const s = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, () => ready(s));
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${config.HOST}:${port}`;
  return {
    origin,
    baseUrl: `${origin}/v-next`,
    services,
    async close() {
      await worker.stop();
      await new Promise<void>((done) => server.close(() => done()));
      await db.close();
    },
  };
}
