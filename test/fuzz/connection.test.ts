import { request as httpRequest, Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '#core/wire/errors.ts';
import { startTestService, type TestService } from '../support/test-service.ts';

/**
 * Refusals that happen below the operations (body too large, request head too large) still answer the error body,
 * and say truthfully what becomes of the connection: a client that reuses a socket the service is about to close
 * sees its next request fail.
 */
let service: TestService;
beforeAll(async () => {
  service = await startTestService({ BODY_LIMIT_BYTES: '2048' });
});
afterAll(() => service?.destroy());

interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  socketClosed: Promise<boolean>;
}

function send(agent: Agent, options: { method: string; path: string; body?: string; headers?: Record<string, string> }): Promise<RawReply> {
  const url = new URL(service.baseUrl + options.path);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { agent, host: url.hostname, port: url.port, path: url.pathname + url.search, method: options.method, headers: { 'content-type': 'application/json', ...options.headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          const socket = res.socket;
          // Closed now or within a moment of the answer: what a keep-alive client would run into.
          const socketClosed = new Promise<boolean>((done) => {
            if (!socket || socket.destroyed) return done(true);
            const timer = setTimeout(() => done(socket.destroyed), 300);
            socket.once('close', () => {
              clearTimeout(timer);
              done(true);
            });
          });
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, socketClosed });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('refusals below the operations', () => {
  it('413 for a body over the limit has the error body and says Connection: close when it closes the socket', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const reply = await send(agent, { method: 'POST', path: '/user/api-keys', body: JSON.stringify({ label: 'x'.repeat(10_000) }) });
      expect(reply.status).toBe(413);
      expect(errorBody.strict().parse(JSON.parse(reply.body))).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
      const closed = await reply.socketClosed;
      const connection = String(reply.headers.connection ?? '').toLowerCase();
      if (closed) expect(connection).toBe('close');
      else expect(connection).not.toBe('close');
      // Either way the client's next request on the same agent goes through.
      const next = await send(agent, { method: 'GET', path: '/siwe/allowed-chains' });
      expect(next.status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('a request head over the server limit is refused with the error body', async () => {
    const agent = new Agent({ keepAlive: false });
    try {
      const reply = await send(agent, { method: 'GET', path: `/search/availability?domain=${'a'.repeat(20_000)}.com` });
      expect(reply.status).toBe(431);
      expect(errorBody.strict().parse(JSON.parse(reply.body))).toMatchObject({ status: 431 });
    } finally {
      agent.destroy();
    }
  });
});
