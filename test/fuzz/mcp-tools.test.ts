import { afterAll, beforeAll, describe, it } from 'vitest';
import fc from 'fast-check';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { startTestService, type TestService } from '../support/test-service.ts';
import { testClient, TEST_KEYS } from '../support/client.ts';
import { createApiKey, httpMcpClient } from '../support/mcp.ts';
import { FuzzRun } from './fuzz-run.ts';

/**
 * Issue 35: every MCP tool with bad arguments (wrong types, missing and unknown fields, odd strings) answers a tool
 * error or a result, never a protocol error and never a 5xx (the SDK's client throws on either). Arguments are drawn
 * from each tool's own input schema, as listed: per property a plausible value, any JSON value, or none. A key of a
 * wallet that holds no domain, so nothing a case could do touches another test's data.
 */
const CASES_PER_TOOL = 30;
/** The floor: fewer tools or cases than this and the fuzz proves too little. */
const MIN_TOOLS = 20;
const run = new FuzzRun('MCP tools', 'test/fuzz/mcp-tools.test.ts');

let service: TestService;
let agent: Client;
let tools: Tool[];

beforeAll(async () => {
  service = await startTestService({ RATE_LIMIT_PER_MINUTE: '100000000' });
  const key = await createApiKey(testClient(service), TEST_KEYS[2]);
  agent = await httpMcpClient(service.baseUrl, key.key);
  tools = (await agent.listTools()).tools;
}, 60_000);
afterAll(async () => {
  console.log(run.summary());
  await agent?.close();
  await service?.destroy();
});

type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; items?: JsonSchema; enum?: unknown[] };

/** A value that fits the property's type (not necessarily its rules): what an agent nearly gets right. */
function plausible(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return fc.oneof(fc.constantFrom('agent-zone.com', 'www', 'A', '192.0.2.1', '', ' ', 'plan_x', 'quote_x', '\u0000', 'é.com', 'x'.repeat(300)), fc.string());
    case 'integer':
    case 'number':
      return fc.oneof(fc.constantFrom(0, 1, -1, 10, 2 ** 31, 1.5, Number.MAX_SAFE_INTEGER), fc.integer());
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(schema.items ? plausible(schema.items) : fc.anything(), { maxLength: 3 });
    case 'object':
      return schema.properties ? argsFor(schema) : fc.dictionary(fc.string({ maxLength: 8 }), fc.anything(), { maxKeys: 3 });
    default:
      return fc.anything();
  }
}

function argsFor(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.entries(schema.properties ?? {}).map(([name, property]) =>
    fc.oneof(plausible(property), fc.anything(), fc.constant(undefined)).map((value) => [name, value] as const),
  );
  const extra = fc.option(fc.tuple(fc.string({ maxLength: 12 }), fc.anything()), { nil: undefined });
  return fc.tuple(fc.tuple(...fields), extra).map(([pairs, junk]) => {
    const args: Record<string, unknown> = {};
    for (const [name, value] of pairs) if (value !== undefined) args[name] = value;
    if (junk) args[junk[0]] = junk[1];
    return args;
  });
}

describe('MCP tools with bad arguments', () => {
  it('every tool answers a result or a tool error, never a protocol error or a 5xx', async () => {
    if (tools.length < MIN_TOOLS) throw new Error(`only ${tools.length} tools listed`);
    for (const [index, tool] of tools.entries()) {
      await run.property(
        tool.name,
        index * 1000,
        CASES_PER_TOOL,
        argsFor(tool.inputSchema as JsonSchema),
        async (args) => {
          try {
            const result = await agent.callTool({ name: tool.name, arguments: args });
            const text = (result.content as Array<{ text?: string }>)[0]?.text ?? '';
            if (result.isError && !text) return 'a tool error without words';
            // A 5xx of the service behind the tool, or a fault of the tool itself, is an answer too: but a failure.
            if (/The service failed \(5\d\d\)|could not be completed/.test(text)) return `a fault behind the tool: ${text.slice(0, 200)}`;
            return null;
          } catch (error) {
            return `protocol error or 5xx: ${(error as Error).message}`;
          }
        },
        (args) => `${tool.name} ${JSON.stringify(args)?.slice(0, 300)}`,
      );
    }
  }, 240_000);
});
