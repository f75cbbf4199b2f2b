import { describe, expect, it } from 'vitest';
import { findViolations, importSpecifiers, projectRoot, readSourceFiles } from './import-boundaries.ts';

const project = (files: Record<string, string>) => new Map(Object.entries(files));

describe('import boundaries of this project', () => {
  it('src, server, e2e, scripts and test keep every rule', () => {
    const files = readSourceFiles(projectRoot, ['core', 'src', 'server', 'e2e', 'scripts', 'test']);
    // The walk found the code it is meant to judge, so an empty answer means something.
    expect(files.size).toBeGreaterThan(300);
    expect(importSpecifiers(files.get('src/lib/api/call.ts')!)).toContain('../session/wallet-session.ts');
    expect(importSpecifiers(files.get('server/routes/dns.test.ts')!)).toContain('../../test/support/test-service.ts');
    expect(findViolations(files)).toEqual([]);
  });
});

describe('importSpecifiers', () => {
  it('reads static, type-only, re-exported, dynamic and side-effect imports, over several lines', () => {
    const source = [
      "import { a } from './a.ts';",
      "import type { B } from '../b.ts';",
      "import {\n  c,\n  d,\n} from '@/lib/c.ts';",
      "export { e } from './e.ts';",
      "export * from './f.ts';",
      "const G = lazy(() => import('@/features/g/GPage.tsx'));",
      "import './styles.css';",
      "const text = \"import { x } from './in-a-string.ts'\"; // import './in-a-comment.ts'",
    ].join('\n');
    expect(importSpecifiers(source)).toEqual(['./a.ts', '../b.ts', '@/lib/c.ts', './e.ts', './f.ts', '@/features/g/GPage.tsx', './styles.css']);
  });
});

describe('findViolations on a tiny project', () => {
  it('a feature reaching into another feature is refused; its index.ts and its own files are fine', () => {
    const violations = findViolations(
      project({
        'src/features/records/RecordsPage.tsx': [
          "import { useToggleParking } from '@/features/parking/api/toggle-parking.ts';",
          "import { parked } from '@/features/parking/index.ts';",
          "import { Row } from './components/Row.tsx';",
        ].join('\n'),
        'src/lib/signing/x.ts': "import { y } from '../../features/orders/api/get-order.ts';",
      }),
    );
    expect(violations).toEqual([
      'src/features/records/RecordsPage.tsx imports src/features/parking/api/toggle-parking.ts: outside a feature, import only src/features/parking/index.ts',
      'src/lib/signing/x.ts imports src/features/orders/api/get-order.ts: outside a feature, import only src/features/orders/index.ts',
    ]);
  });

  it('the shell may mount a component at the top of a feature, nothing deeper', () => {
    const violations = findViolations(
      project({
        'src/app/routes.tsx': "const OrdersPage = lazy(() => import('@/features/orders/OrdersPage.tsx'));",
        'src/app/Layout.tsx': "import { useOrder } from '@/features/orders/use-follow-order.ts';\nimport { Badge } from '@/features/balance/components/Badge.tsx';",
      }),
    );
    expect(violations).toEqual([
      'src/app/Layout.tsx imports src/features/orders/use-follow-order.ts: outside a feature, import only src/features/orders/index.ts',
      'src/app/Layout.tsx imports src/features/balance/components/Badge.tsx: outside a feature, import only src/features/balance/index.ts',
    ]);
  });

  it('server or test support importing e2e is refused; e2e importing test support is fine', () => {
    const violations = findViolations(
      project({
        'server/db/database.test.ts': "import { freePort } from '../../e2e/support/ports.ts';",
        'test/support/postgres-server.ts': "import { freePort } from '../../e2e/support/ports.ts';",
        'e2e/pages/orders-service.ts': "import { freePort } from '../../test/support/ports.ts';",
      }),
    );
    expect(violations).toEqual([
      'server/db/database.test.ts imports e2e/support/ports.ts: server/ and test/ must not depend on e2e/ (share helpers through test/support/)',
      'test/support/postgres-server.ts imports e2e/support/ports.ts: server/ and test/ must not depend on e2e/ (share helpers through test/support/)',
    ]);
  });

  it('what ships (src/, server/) never imports test/; a test beside its code, test/ itself, e2e and scripts may', () => {
    const violations = findViolations(
      project({
        'server/chain/deploy.ts': "import { fundOnAnvil } from '../../test/chain/dev-actions.ts';",
        'server/routes/index.ts': "import type { TestClient } from '../../test/support/client.ts';",
        'src/features/dnssec/DnssecPanel.tsx': "import { json } from '../../../test/dashboard/service-edge.tsx';",
        'server/routes/dns.test.ts': "import { startTestService } from '../../test/support/test-service.ts';",
        'src/features/dnssec/DnssecPanel.test.tsx': "import { json } from '../../../test/dashboard/service-edge.tsx';",
        'test/chain/testing.ts': "import { fundOnAnvil } from './dev-actions.ts';\nimport { chainClients } from '../../server/chain/client.ts';",
        'e2e/support/chain.ts': "import { fundOnAnvil } from '../../test/chain/dev-actions.ts';",
        'scripts/test.ts': "import { bindToolsMissing } from '../test/support/bind.ts';",
      }),
    );
    expect(violations).toEqual([
      'server/chain/deploy.ts imports test/chain/dev-actions.ts: what ships (src/, server/) never imports test support (test/); only a test may',
      'server/routes/index.ts imports test/support/client.ts: what ships (src/, server/) never imports test support (test/); only a test may',
      'src/features/dnssec/DnssecPanel.tsx imports test/dashboard/service-edge.tsx: what ships (src/, server/) never imports test support (test/); only a test may',
    ]);
  });

  it('a cycle between lib folders is refused with the imports that make it; one direction is fine', () => {
    const cycle = findViolations(
      project({
        'src/lib/api/call.ts': "import { sessionStore } from '../session/session.ts';",
        'src/lib/session/acting.ts': "import { ApiError } from '@/lib/api/api-error.ts';",
        'src/lib/signing/sign.ts': "import { apiCall } from '../api/call.ts';",
      }),
    );
    expect(cycle).toEqual([
      'cycle between src/lib folders api ↔ session: src/lib/api/call.ts → src/lib/session/session.ts; src/lib/session/acting.ts → src/lib/api/api-error.ts',
    ]);
    const longer = findViolations(
      project({
        'src/lib/a/a.ts': "import '../b/b.ts';",
        'src/lib/b/b.ts': "import '../c.ts';",
        'src/lib/c.ts': "import './a/a.ts';",
      }),
    );
    expect(longer).toEqual(['cycle between src/lib folders a ↔ b ↔ c.ts: src/lib/a/a.ts → src/lib/b/b.ts; src/lib/b/b.ts → src/lib/c.ts; src/lib/c.ts → src/lib/a/a.ts']);
    expect(findViolations(project({ 'src/lib/api/call.ts': "import { sessionStore } from '../session/session.ts';" }))).toEqual([]);
  });

  it('core imports no React, DOM or Node-only module, and nothing of src/ or server/', () => {
    const violations = findViolations(
      project({
        'core/a.ts': [
          "import { useState } from 'react';",
          "import { createRoot } from 'react-dom/client';",
          "import { readFileSync } from 'node:fs';",
          "import { join } from 'path';",
          "import { render } from '@testing-library/react';",
          "import { apiCall } from '../src/lib/api/call.ts';",
          "import { pool } from '../server/db/pool.ts';",
          "import { z } from 'zod';",
          "import { other } from './wire/other.ts';",
        ].join('\n'),
        'core/a.test.ts': "import { readFileSync } from 'node:fs';",
        'src/lib/b.ts': "import { readFileSync } from 'node:fs';\nimport { useState } from 'react';",
      }),
    );
    expect(violations).toEqual([
      'core/a.ts imports react: core imports no React or DOM module',
      'core/a.ts imports react-dom/client: core imports no React or DOM module',
      'core/a.ts imports node:fs: core imports no Node-only module',
      'core/a.ts imports path: core imports no Node-only module',
      'core/a.ts imports @testing-library/react: core imports no React or DOM module',
      'core/a.ts imports src/lib/api/call.ts: core imports nothing of src/ (it is shared by the service and the dashboard)',
      'core/a.ts imports server/db/pool.ts: core imports nothing of server/ (it is shared by the service and the dashboard)',
    ]);
  });

  it('src/ never imports server/ nor server/ src/, tests included; both name the kernel by its alias', () => {
    const violations = findViolations(
      project({
        'src/features/records/x.test.ts': "import { compileZone } from '../../../server/dns/zone-compile.ts';",
        'src/features/records/y.ts': "import type { Services } from '../../../server/http/context.ts';",
        'server/auth/z.ts': "import { Button } from '../../src/ui/Button.tsx';",
        'server/auth/w.ts': "import { TYPE_REGISTRY } from '../../core/eip712/registry.ts';",
        'server/auth/v.ts': "import { TYPE_REGISTRY } from '#core/eip712/registry.ts';",
        'src/lib/u.ts': "import { operations } from '#core/operations/index.ts';",
      }),
    );
    expect(violations).toEqual([
      'src/features/records/x.test.ts imports server/dns/zone-compile.ts: src/ never imports server/ (share it through core/)',
      'src/features/records/y.ts imports server/http/context.ts: src/ never imports server/ (share it through core/)',
      'server/auth/z.ts imports src/ui/Button.tsx: server/ never imports src/, the dashboard (share it through core/)',
      'server/auth/w.ts imports ../../core/eip712/registry.ts: name the kernel by its alias (#core/eip712/registry.ts)',
    ]);
  });
});
