import { createServer } from 'node:net';
import { readFileSync } from 'node:fs';

/** A port the OS says is free right now (listen on 0, read it, close). */
export async function freePort(): Promise<number> {
  const port = await bindOnce(0);
  if (port === null) throw new Error('no free port on 127.0.0.1');
  return port;
}

/** Listens on `port` on 127.0.0.1 (0: any) and closes again: the port it had, or null when that port was taken. */
function bindOnce(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * A free port below the range the OS hands out for port 0 and for outgoing connections (Linux's
 * ip_local_port_range, 32768–60999 by default): for a server that must be named long before it listens (the e2e
 * Safe App host, whose origin is built into the dashboard), so that no connection or port-0 listener made meanwhile
 * takes it. CI once lost the Safe host's port that way, eight minutes after it was chosen.
 */
export async function freePortBelowEphemeral(): Promise<number> {
  const low = ephemeralLow();
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = 20_000 + Math.floor(Math.random() * Math.max(1, low - 20_000));
    if ((await bindOnce(port)) !== null) return port;
  }
  return freePort();
}

function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 21_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}
