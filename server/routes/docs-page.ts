import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Hono } from 'hono';
import { notFound } from '../domain-errors.ts';
import { API_PREFIX } from '../http/router.ts';

/**
 * The interactive API reference at /v-next/docs: Swagger UI from the `swagger-ui-dist` package, served from the
 * service's own files so the page works offline and tells no third party who reads it.
 */
const DOCS_PATH = `${API_PREFIX}/docs`;
const ASSETS_PATH = `${DOCS_PATH}/assets`;

const SWAGGER_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
/** The only files served from the package: a fixed list, so no request names a path on disk. */
const PACKAGE_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

// An external script rather than an inline one, so the page's policy can forbid inline scripts.
const INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(`${API_PREFIX}/openapi.json`)},
    dom_id: '#swagger-ui',
    deepLinking: true,
    // The default validator is a remote service: none, so the page makes no request off this host.
    validatorUrl: null,
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Namefi local service: API reference</title>
<link rel="icon" type="image/png" href="${ASSETS_PATH}/favicon-32x32.png">
<link rel="stylesheet" href="${ASSETS_PATH}/swagger-ui.css">
</head>
<body>
<main id="swagger-ui"></main>
<script src="${ASSETS_PATH}/swagger-ui-bundle.js"></script>
<script src="${ASSETS_PATH}/init.js"></script>
</body>
</html>
`;

/** Same-origin only: Swagger UI styles inline and draws icons from data: URIs; nothing may load from elsewhere. */
const DOCS_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function mountDocsPage(app: Hono): void {
  const cache = new Map<string, Buffer>();
  app.get(DOCS_PATH, (c) => {
    c.header('content-security-policy', DOCS_POLICY);
    return c.html(PAGE);
  });
  app.get(`${ASSETS_PATH}/init.js`, (c) => c.body(INIT_SCRIPT, 200, { 'content-type': 'text/javascript; charset=utf-8' }));
  app.get(`${ASSETS_PATH}/:file`, async (c) => {
    const file = c.req.param('file');
    const type = Object.hasOwn(PACKAGE_ASSETS, file) ? PACKAGE_ASSETS[file] : undefined;
    if (!type) throw notFound(`No such file in the API reference: ${file}`);
    let body = cache.get(file);
    if (!body) {
      body = await readFile(join(SWAGGER_DIR, file));
      cache.set(file, body);
    }
    return c.body(new Uint8Array(body), 200, { 'content-type': type, 'cache-control': 'public, max-age=3600' });
  });
}
