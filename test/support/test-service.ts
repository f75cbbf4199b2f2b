import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../server/config.ts';
import { startService, type RunningService } from '../../server/service.ts';

export interface TestService extends RunningService {
  dataDir: string;
  /** Stops the service and starts it again on the same data, as after a crash or a deploy. */
  restart(env?: Record<string, string>): Promise<TestService>;
  /** Stops and deletes the data. */
  destroy(): Promise<void>;
}

/** The real service on a free port with a fresh database, for HTTP-level tests. */
export async function startTestService(env: Record<string, string> = {}, dataDir?: string): Promise<TestService> {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'namefi-test-')));
  // Every test shares 127.0.0.1, whose budget would otherwise tie one test's outcome to how many requests others made.
  const config = loadConfig({ PORT: '0', DATA_DIR: dir, ORDER_PROCESSING_MS: '50', LOG_REQUESTS: 'false', SIWE_DOMAIN: 'localhost:5173', RATE_LIMIT_PER_MINUTE: '1000000', ...env });
  const running = await startService(config);
  return {
    ...running,
    dataDir: dir,
    async restart(nextEnv = env) {
      await running.close();
      return startTestService(nextEnv, dir);
    },
    async destroy() {
      await running.close().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
