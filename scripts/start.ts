import { spawn, type ChildProcess } from 'node:child_process';
import { SERVICE_NODE_ARGS } from './service-args.ts';
import { createServer } from 'node:net';

/**
 * `npm start`: the local service and the dashboard together. Uses 8787 and 5173 when free, otherwise
 * any free ports (SERVICE_PORT / DASHBOARD_PORT choose them), wires the dashboard to the service and the
 * service's SIWE domain to the dashboard, prints the URL to open, forwards Ctrl-C and exits if either dies.
 */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function anyFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function choosePort(requested: string | undefined, preferred: number): Promise<number> {
  if (requested) return Number(requested);
  return (await portFree(preferred)) ? preferred : anyFreePort();
}

async function waitForUrl(url: string, child: ChildProcess, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url} never answered: its process exited`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

const servicePort = await choosePort(process.env.SERVICE_PORT, 8787);
const dashboardPort = await choosePort(process.env.DASHBOARD_PORT, 5173);
// The service answers DNS for its zones here (UDP and TCP); 8053 rather than 5353, which mDNS often holds.
const dnsPort = await choosePort(process.env.DNS_PORT, 8053);
// The URL forwarder: a forwarded domain's apex points here (FORWARD_ADDRESSES, 127.0.0.1 by default).
const forwardPort = await choosePort(process.env.FORWARD_PORT, 8080);
// The service runs its own anvil (CHAIN=anvil) so that ownership and credit live on a real chain; CHAIN=none opts out.
const chain = process.env.CHAIN ?? 'anvil';
const chainPort = chain === 'anvil' ? await choosePort(process.env.CHAIN_PORT, 8545) : undefined;
const rpcUrl = chainPort ? `http://127.0.0.1:${chainPort}` : undefined;
const serviceUrl = `http://127.0.0.1:${servicePort}/v-next`;
const dashboardHost = `127.0.0.1:${dashboardPort}`;

const children: ChildProcess[] = [];
let stopping = false;

function stop(code: number, reason?: string): void {
  if (stopping) return;
  stopping = true;
  if (reason) console.error(`\n${reason}`);
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  // Give the service time to close its database and stop its chain (which saves the chain's state), then go regardless.
  const force = setTimeout(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    process.exit(code);
  }, 10_000);
  force.unref();
  Promise.all(children.map((c) => (c.exitCode !== null ? Promise.resolve() : new Promise((r) => c.once('exit', r))))).then(() => process.exit(code));
}

function run(name: string, command: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
  child.on('exit', (code, signal) => stop(code ?? 1, stopping ? undefined : `${name} stopped (${signal ?? `exit ${code}`}); stopping the other one too.`));
  children.push(child);
  return child;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop(0));

const service = run('The local service', process.execPath, SERVICE_NODE_ARGS, {
  PORT: String(servicePort),
  SIWE_DOMAIN: process.env.SIWE_DOMAIN ?? dashboardHost,
  CHAIN: chain,
  DNS_PORT: String(dnsPort),
  FORWARD_PORT: String(forwardPort),
  ...(chainPort ? { CHAIN_PORT: String(chainPort) } : {}),
});
const dashboard = run('The dashboard', 'node_modules/.bin/vite', ['--host', '127.0.0.1', '--port', String(dashboardPort), '--strictPort'], {
  VITE_API_URL: process.env.VITE_API_URL ?? serviceUrl,
  VITE_DOH_URL: process.env.VITE_DOH_URL ?? `http://127.0.0.1:${servicePort}/dns-query`,
  DASHBOARD_PORT: String(dashboardPort),
  ...(rpcUrl ? { VITE_RPC_31337: process.env.VITE_RPC_31337 ?? rpcUrl } : {}),
});

try {
  await Promise.all([waitForUrl(`${serviceUrl}/siwe/allowed-chains`, service), waitForUrl(`http://${dashboardHost}/`, dashboard)]);
  const chainLine = rpcUrl ? `\n  Local chain:      ${rpcUrl} (anvil, chain 31337)` : '';
  const dnsLine = `\n  Local DNS:        dig @127.0.0.1 -p ${dnsPort} <domain> (DNS over HTTPS: http://127.0.0.1:${servicePort}/dns-query)`;
  const forwardLine = `\n  URL forwarder:    http://127.0.0.1:${forwardPort}/ (by Host: curl -H 'Host: <domain>' …)`;
  console.log(`\n  Namefi dashboard: http://${dashboardHost}/\n  Local service:    ${serviceUrl}${chainLine}${dnsLine}${forwardLine}\n\n  Ctrl-C stops both.\n`);
} catch (error) {
  stop(1, (error as Error).message);
}
