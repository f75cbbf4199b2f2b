import type { Hono } from 'hono';
import { z } from 'zod';
import { allOperations, operations, type Operation } from '#core/operations/index.ts';
import { errorBody } from '#core/wire/errors.ts';
import { DEFAULT_HEADER_PREFIX, serviceHeaders, type ServiceHeaders } from '#core/headers.ts';
import { API_PREFIX } from '../http/router.ts';
import { mountDocsPage } from './docs-page.ts';

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  return rest;
}

/** Errors each kind of operation can answer, beyond the 429 every one can. */
function errorStatuses(op: Operation): number[] {
  const statuses = new Set<number>();
  if (op.input || op.method !== 'GET') statuses.add(400);
  if (op.auth === 'siwe' || op.auth === 'write') statuses.add(401);
  if (op.path.startsWith('/dns/') && op.auth === 'write') [403, 404].forEach((s) => statuses.add(s));
  for (const status of op.errors ?? []) statuses.add(status);
  if (op.method !== 'GET') statuses.add(413);
  statuses.add(429);
  return [...statuses].sort();
}

function security(op: Operation): Array<Record<string, string[]>> | undefined {
  const signed = op.signed ? [{ eip712Signer: [], eip712Signature: [], eip712Type: [] }] : [];
  switch (op.auth) {
    case 'none':
      return [];
    case 'optional':
      return [{}, { siweToken: [] }, { apiKey: [] }, ...signed];
    case 'siwe':
      return [{ siweToken: [] }, { apiKey: [] }, ...signed];
    case 'write':
      return [{ apiKey: [] }, ...signed];
  }
}

function parameters(op: Operation): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [name, field] of Object.entries(op.params?.shape ?? {})) {
    out.push({ name, in: 'path', required: true, schema: schemaOf(field as z.ZodType, 'input') });
  }
  if (op.method === 'GET' && op.input instanceof z.ZodObject) {
    for (const [name, field] of Object.entries(op.input.shape)) {
      const schema = schemaOf(field as z.ZodType, 'input');
      const isArray = schema.type === 'array';
      out.push({
        name,
        in: 'query',
        required: !(field as z.ZodType).safeParse(undefined).success,
        schema,
        ...(isArray ? { style: 'form', explode: true } : {}),
      });
    }
  }
  return out;
}

function requestBody(op: Operation): JsonSchema | undefined {
  if (op.method === 'GET' || !op.input) return undefined;
  const plain = schemaOf(op.input, 'input');
  const types = op.signed?.accepted ?? [];
  const schema =
    types.length === 0
      ? plain
      : {
          oneOf: [
            plain,
            {
              type: 'object',
              description: `An EIP-712 envelope (primary type ${types.join(' or ')}) signed as the security headers say`,
              required: ['payloadType', 'payload', 'timestamp', 'nonce'],
              properties: {
                payloadType: { type: 'string', enum: types.map((t) => t.replace(/Envelope$/, '')) },
                payload: plain,
                timestamp: { type: 'integer', description: 'Unix seconds, within [now-300, now+30]' },
                nonce: { type: 'string', minLength: 1, maxLength: 256 },
              },
            },
          ],
        };
  return { required: !op.input.safeParse({}).success, content: { 'application/json': { schema } } };
}

/** The OpenAPI 3.1 document of every operation in the table, generated from the same zod schemas the service checks with. */
/** x402 travels in headers (base64 JSON): the payment in, the requirements and the settlement out. */
const X402_PARAMETERS = [
  { name: 'PAYMENT-SIGNATURE', in: 'header', required: false, description: 'The x402 v2 payment payload (base64 JSON): an EIP-3009 authorization signed by the payer', schema: { type: 'string' } },
  { name: 'X-PAYMENT-SIGNATURE', in: 'header', required: false, description: 'The same, under production’s other name', schema: { type: 'string' } },
];

function addX402Headers(responses: Record<string, JsonSchema>): void {
  const header = (description: string) => ({ description, schema: { type: 'string' } });
  responses['200'] = { ...responses['200'], headers: { 'PAYMENT-RESPONSE': header('The settlement (base64 JSON): success, transaction, network, payer') } };
  responses['402'] = {
    description: 'Payment required, or the payment was refused (the reason in the body); a fresh PAYMENT-REQUIRED either way',
    headers: { 'PAYMENT-REQUIRED': header('x402 v2 payment requirements (base64 JSON): accepts[0] is scheme exact on the chain, amount in the USD token’s base units') },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}

function openApiDocument(headers: ServiceHeaders = serviceHeaders(DEFAULT_HEADER_PREFIX)): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of allOperations()) {
    const id = op.id;
    const responses: Record<string, JsonSchema> = {
      '200': { description: op.summary, content: { 'application/json': { schema: schemaOf(op.output, 'output') } } },
    };
    for (const status of errorStatuses(op)) responses[String(status)] = { $ref: '#/components/responses/Error' };
    const body = requestBody(op);
    if (id === 'registerDomainX402') addX402Headers(responses);
    (paths[op.path] ??= {})[op.method.toLowerCase()] = {
      operationId: id,
      summary: op.summary,
      tags: [op.tag],
      security: security(op),
      parameters: id === 'registerDomainX402' ? [...parameters(op), ...X402_PARAMETERS] : parameters(op),
      ...(body ? { requestBody: body } : {}),
      responses,
    };
  }
  const header = (name: string, description: string) => ({ type: 'apiKey', in: 'header', name, description });
  return {
    openapi: '3.1.0',
    info: { title: 'Namefi local service', version: '1.0.0', description: 'The local stand-in for the Namefi API (see the contract).' },
    servers: [{ url: API_PREFIX }],
    tags: [...new Set(Object.values(operations).map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { Error: schemaOf(errorBody, 'output') },
      responses: {
        Error: {
          description: 'An error: { defined, code, status, message, data? }',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
      securitySchemes: {
        apiKey: header(headers.apiKey, 'An API key (nfk_…); acts as the wallet that created it'),
        siweToken: header(headers.siweToken, 'A SIWE session token from POST /siwe/verify'),
        eip712Signer: header(headers.signer, 'The address that signed the EIP-712 envelope in the body'),
        eip712Signature: header(headers.signature, 'The EIP-712 signature of the envelope'),
        eip712Type: header(headers.eip712Type, 'The primary type signed, e.g. CreateDnsRecordEnvelope'),
      },
    },
  };
}

export function mountDocs(app: Hono, headers?: ServiceHeaders): void {
  let cached: JsonSchema | undefined;
  app.get(`${API_PREFIX}/openapi.json`, (c) => c.json((cached ??= openApiDocument(headers))));
  mountDocsPage(app);
}
