// The service's layering, checked by dependency-cruiser (`npm test` runs it; alone: `npx depcruise server core`).
// The dashboard's own rules (a feature through its index.ts, no cycles between src/lib folders, core pure) stay
// in scripts/import-boundaries.ts.
//
// server/ in layers, top to bottom:
//   HTTP     server/http/ (router, context, error mapping, compression), server/routes/ (one module per endpoint)
//   wiring   server/app.ts, server/service.ts, server/main.ts (build the service from the folders below)
//   domain   every other folder: auth, balance, chain, db, dns, dns-client, dns-server, dnssec, forwarder, history, net, orders,
//            ownership, search, support, x402, zones (the zone-change pipeline) — plain values in, plain values (or DomainError) out
// A folder never imports one above it, and no two folders of server/ import each other, directly or around a loop.
const DOMAIN = '^server/(auth|balance|chain|db|dns|dns-client|dns-server|dnssec|forwarder|history|net|orders|ownership|search|support|x402|zones)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-imports-http',
      severity: 'error',
      comment: 'Domain code knows nothing of HTTP: it returns data or throws a DomainError (server/domain-errors.ts), which server/http/ maps to a status once.',
      from: { path: DOMAIN },
      to: { path: '^server/(http|routes)/' },
    },
    {
      name: 'domain-imports-wiring',
      severity: 'error',
      comment: 'Domain code is given what it needs (server/services.ts types it); it never imports the code that builds the service.',
      from: { path: DOMAIN },
      to: { path: '^server/(app|service|main)[.]ts$' },
    },
    {
      name: 'http-imports-routes',
      severity: 'error',
      comment: 'server/http/ is the plumbing the routes use; it never imports a route.',
      from: { path: '^server/http/' },
      to: { path: '^server/routes/' },
    },
    {
      name: 'core-imports-server',
      severity: 'error',
      comment: 'core is shared by the dashboard and the service; it never imports the service.',
      from: { path: '^core/' },
      to: { path: '^server/' },
    },
    {
      name: 'server-folder-cycle',
      severity: 'error',
      comment: 'No cycle between the folders of server/: each one reads knowing only the folders it imports.',
      scope: 'folder',
      from: { path: '^server/' },
      to: { circular: true },
    },
  ],
  options: {
    // TypeScript 7 has no JavaScript API for dependency-cruiser; swc parses the .ts files (type-only imports count).
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^(server|core)/',
    // The rules are about what ships: tests may reach across layers to set a scene (test support lives in test/,
    // which includeOnly leaves out).
    exclude: { path: ['[.]test[.]ts$'] },
    moduleSystems: ['es6'],
    progress: { type: 'none' },
  },
};
