import type { Context, Hono } from 'hono';
import { answerDynDns } from '../doors/dyndns/update.ts';
import type { Services } from '../services.ts';

/** DynDNS2's path (Dyn's, which every client writes by default), on the service's HTTP port, outside /v-next. */
export const DYNDNS_PATH = '/nic/update';

/**
 * Mounts DynDNS2 (server/doors/dyndns/): GET, as its clients send it, answered in text/plain. `senderOf` is the
 * client's own address as the app reads it (TRUSTED_PROXIES respected): the address set when `myip` is absent.
 */
export function mountDynDns(app: Hono, services: Services, senderOf: (c: Context) => string | null): void {
  app.get(DYNDNS_PATH, async (c) => {
    const answer = await answerDynDns(services, {
      authorization: c.req.header('authorization'),
      hostname: c.req.query('hostname') ?? null,
      myip: c.req.query('myip') ?? null,
      sender: senderOf(c),
    }).catch((error: unknown) => {
      // The protocol's own word for a failure of the service (its clients read the text, not a JSON 500); the
      // message only, never the request's credentials.
      console.error(`DynDNS2: ${(error as Error).message}`);
      return { status: 200 as const, body: '911\n' };
    });
    // No cache may keep an answer that depends on the credentials; badauth asks for them as Basic auth does.
    const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };
    if (answer.status === 401) headers['www-authenticate'] = 'Basic realm="DynDNS2", charset="UTF-8"';
    return c.body(answer.body, answer.status, headers);
  });
}
