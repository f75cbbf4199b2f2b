import { z } from 'zod';
import { chainConfigShape } from './chain/config.ts';

const list = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean));

/** Every setting of the local service, from the environment, with defaults for local use. See the README. */
export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('.data'),
  /** A PostgreSQL URL; when set it replaces the embedded PGlite database in DATA_DIR. */
  DATABASE_URL: z.string().optional(),
  ORDER_PROCESSING_MS: z.coerce.number().int().min(0).default(3000),
  /** The host the SIWE message must name: the dashboard's own host (vite.config.ts serves 127.0.0.1:5173). */
  SIWE_DOMAIN: z.string().default('127.0.0.1:5173'),
  ALLOWED_CHAINS: list('11155111,46630,31337').pipe(z.array(z.string().regex(/^\d+$/, 'chain ids are numbers').transform(Number)).min(1)),
  CORS_ORIGINS: list('http://localhost:*,http://127.0.0.1:*'),
  FAUCET_COOLDOWN_S: z.coerce.number().int().min(0).default(0),
  FAUCET_ENABLED: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  /** Records one zone may hold (contract, Limits: 100,000). At least one batch (1,000), so a batch into an empty zone always fits. */
  ZONE_RECORD_LIMIT: z.coerce.number().int().min(1000).default(100_000),
  SIWE_TOKEN_TTL_S: z.coerce.number().int().min(1).default(43200),
  HEADER_PREFIX: z.string().regex(/^[a-z0-9-]+$/).default('namefi'),
  LOG_REQUESTS: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** The port of the authoritative DNS server (UDP and TCP on HOST); unset = no DNS server (DoH stays on HTTP). 0 = any free port. */
  DNS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Clients that may transfer whole zones (AXFR over TCP): loopback only by default. */
  DNS_AXFR_ALLOW: list('127.0.0.1,::1'),
  /** The name servers the zones' SOA and apex NS name. */
  DNS_NAMESERVERS: list('ns1.namefi.test,ns2.namefi.test'),
  ...chainConfigShape,
});
export type Config = z.infer<typeof configSchema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid service configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
