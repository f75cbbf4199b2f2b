import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { forwardLocation } from '#core/wire/forwarding.ts';
import type { Queryable } from '../db/database.ts';
import { forwardingForHost } from '../dns/forwarding-store.ts';

export interface Forwarder {
  port: number;
  origin: string;
  close(): Promise<void>;
}

/**
 * The URL forwarder (FORWARD_PORT): plain HTTP, chosen by the Host header. A forwarded domain's apex and www answer
 * its status and Location; any other host a 404. It reads the setting per request, so a change is live at commit.
 */
export async function startForwarder(options: { db: Queryable; host: string; port: number }): Promise<Forwarder> {
  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const setting = await forwardingForHost(options.db, request.headers.host ?? '');
    if (!setting) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`No forwarding for ${request.headers.host ?? 'this host'}\n`);
      return;
    }
    const location = forwardLocation(setting, request.url ?? '/');
    response.writeHead(setting.statusCode, { location, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end(`Moved to ${location}\n`);
  };
  const server = createServer((request, response) => {
    answer(request, response).catch((error: unknown) => {
      console.error('Forwarder: a request failed', error);
      if (!response.headersSent) response.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('The forwarder could not read its settings; try again\n');
    });
  });
  const port = await new Promise<number>((ready, fail) => {
    server.once('error', fail);
    server.listen(options.port, options.host, () => ready((server.address() as AddressInfo).port));
  });
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    port,
    origin: `http://${host}:${port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** Asks the forwarder for `path` of `domain`, as a browser reaching the domain would, without following the redirect. */
export async function tryForwarder(origin: string, domain: string, path: string): Promise<{ url: string; host: string; status: number; location: string | null }> {
  // `path` starts with one slash (the operation's schema), so the request stays on the forwarder's own origin.
  const target = new URL(`${origin}${path}`);
  return new Promise((done, fail) => {
    const req = httpRequest(target, { method: 'GET', headers: { host: domain }, timeout: 5000 }, (res) => {
      res.resume();
      res.once('end', () => done({ url: `http://${domain}${target.pathname}${target.search}`, host: domain, status: res.statusCode ?? 0, location: res.headers.location ?? null }));
    });
    req.once('timeout', () => req.destroy(new Error('The forwarder did not answer within 5 s')));
    req.once('error', fail);
    req.end();
  });
}
