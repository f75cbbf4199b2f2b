import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { operations } from '#core/operations/index.ts';

let service: TestService;
let document: any;

beforeAll(async () => {
  service = await startTestService();
  const response = await fetch(`${service.baseUrl}/openapi.json`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/application\/json/);
  document = await response.json();
});
afterAll(() => service.destroy());

const operationsIn = (doc: any) =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
  );

describe('GET /v-next/openapi.json', () => {
  it('is an OpenAPI 3.1 document listing every operation of the table at its method and path', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: '/v-next' }]);
    const listed = operationsIn(document).map(({ path, method, operation }) => `${operation.operationId} ${method} ${path}`);
    const expected = Object.values(operations).map((op) => `${op.id} ${op.method} ${op.path}`);
    expect(listed.sort()).toEqual(expected.sort());
  });

  it('gives each operation its tag, security per auth mode and the error body', () => {
    const byId = Object.fromEntries(operationsIn(document).map(({ operation }) => [operation.operationId, operation]));
    expect(byId.getDnsRecords.security).toEqual([]);
    expect(byId.checkAvailability.security).toContainEqual({});
    expect(byId.getBalance.security).toEqual([{ siweToken: [] }, { apiKey: [] }]);
    expect(byId.createDnsRecord.security).toEqual([{ apiKey: [] }, { eip712Signer: [], eip712Signature: [], eip712Type: [] }]);
    expect(byId.createDnsRecord.tags).toEqual(['dns']);
    expect(byId.registerDomain.responses['402']).toEqual({ $ref: '#/components/responses/Error' });
    expect(byId.registerDomain.responses['409']).toBeDefined();
    expect(document.components.securitySchemes.siweToken).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-namefi-siwe-token' }));
    expect(document.components.schemas.Error.required).toEqual(expect.arrayContaining(['defined', 'code', 'status', 'message']));
  });

  it('describes path and query parameters and request bodies from the zod schemas', () => {
    const byId = Object.fromEntries(operationsIn(document).map(({ operation }) => [operation.operationId, operation]));
    expect(byId.getOrder.parameters).toEqual([expect.objectContaining({ name: 'orderId', in: 'path', required: true })]);
    const suggestions = Object.fromEntries(byId.getSuggestions.parameters.map((p: any) => [p.name, p]));
    expect(suggestions.query).toMatchObject({ in: 'query', required: true, schema: { type: 'string', minLength: 1 } });
    expect(suggestions.pageSize).toMatchObject({ required: false, schema: { maximum: 100, default: 16 } });
    expect(byId.checkBulkAvailability.parameters[0]).toMatchObject({ name: 'domains', schema: { type: 'array', maxItems: 50 }, explode: true });
    const body = byId.registerWithRecords.requestBody.content['application/json'].schema;
    expect(body.oneOf[0].required).toEqual(expect.arrayContaining(['normalizedDomainName', 'durationInYears', 'records']));
    expect(body.oneOf[1].properties.payloadType.enum).toEqual(['RegisterDomainWithRecords']);
    expect(byId.getUserDomains.responses['200'].content['application/json'].schema.items.properties.dnsStatus).toBeDefined();
  });

  it('documents both x402 operations at production’s paths, with the payment headers', () => {
    const listed = operationsIn(document).map(({ path, method, operation }) => `${method} ${path} ${operation.operationId}`);
    expect(listed).toContain('GET /x402/domain/{normalizedDomainName} registerDomainX402');
    expect(listed).toContain('GET /x402/purchase/{purchaseId} getX402Purchase');
    const byId = Object.fromEntries(operationsIn(document).map(({ operation }) => [operation.operationId, operation]));
    const x402 = byId.registerDomainX402;
    expect(x402.parameters.map((p: any) => `${p.in} ${p.name}`)).toEqual(
      expect.arrayContaining(['path normalizedDomainName', 'query durationInYears', 'query nftReceivingWalletAddress', 'header PAYMENT-SIGNATURE', 'header X-PAYMENT-SIGNATURE']),
    );
    expect(x402.responses['402'].headers['PAYMENT-REQUIRED']).toBeDefined();
    expect(x402.responses['200'].headers['PAYMENT-RESPONSE']).toBeDefined();
    expect(x402.responses['200'].content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['status', 'purchaseId', 'domain', 'buyerWallet', 'nftReceivingWalletAddress', 'estimatedCompletionSeconds']),
    );
    expect(byId.getX402Purchase.security).toEqual([]);
    expect(byId.getX402Purchase.responses['404']).toBeDefined();
  });
});

describe('GET /v-next/docs', () => {
  const localPaths = (html: string) => [...html.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((m) => m[1]);

  it('serves an HTML page whose scripts, styles and icon all load from the service itself', async () => {
    const response = await fetch(`${service.baseUrl}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    const html = await response.text();
    const assets = localPaths(html);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    const origin = new URL(service.baseUrl).origin;
    for (const asset of assets) {
      expect(asset, asset).toMatch(/^\/v-next\/docs\/assets\//);
      const loaded = await fetch(new URL(asset, origin));
      expect(loaded.status, asset).toBe(200);
      expect((await loaded.arrayBuffer()).byteLength, asset).toBeGreaterThan(100);
    }
    const types = await Promise.all(
      ['swagger-ui.css', 'swagger-ui-bundle.js', 'init.js'].map(async (f) => (await fetch(`${service.baseUrl}/docs/assets/${f}`)).headers.get('content-type')),
    );
    expect(types).toEqual([expect.stringMatching(/text\/css/), expect.stringMatching(/javascript/), expect.stringMatching(/javascript/)]);
  });

  it('points Swagger UI at the service’s own OpenAPI document with the remote validator off', async () => {
    const init = await (await fetch(`${service.baseUrl}/docs/assets/init.js`)).text();
    expect(init).toContain('"/v-next/openapi.json"');
    expect(init).toContain('validatorUrl: null');
    expect(init).not.toMatch(/https?:\/\//);
  });

  it('forbids the page to load anything from another host', async () => {
    const policy = (await fetch(`${service.baseUrl}/docs`)).headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    for (const directive of policy.split(';')) expect(directive, directive).not.toMatch(/https?:|\*|\/\//);
  });

  it('answers 404 with the error body for any other file name, and never reads outside the package', async () => {
    for (const name of ['index.html', 'package.json', '..%2Fpackage.json', 'swagger-ui.js.map']) {
      const response = await fetch(`${service.baseUrl}/docs/assets/${name}`);
      expect(response.status, name).toBe(404);
      expect(await response.json()).toMatchObject({ defined: expect.any(Boolean), status: 404 });
    }
  });
});
