import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TOOLS } from './tools.ts';
import { ToolRefusal, type Tool, type ToolContext } from './tool-kit.ts';

const MCP_SERVER_INFO = { name: 'namefi-local', version: '1.0.0' } as const;

const INSTRUCTIONS =
  'Manage domains of the local Namefi service. Reading is free. Changing DNS is two steps: preview_dns_changes, show the person the diff, then ' +
  'apply_dns_changes with the planId. Spending is two steps: quote_registration, tell the person the price, then register_domain or renew_domain ' +
  'with the quoteId and a fresh idempotencyKey. Anything this key may not do: prepare_signature, and give the person the link. No tool creates API keys.';

/** One MCP server over the tool table, for one agent (its key) and the service it reaches. */
export function createMcpServer(ctx: ToolContext): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.input, outputSchema: tool.output, annotations: { title: tool.title, ...tool.annotations } },
      (async (args: Record<string, unknown>) => runTool(tool, args, ctx)) as never,
    );
  }
  return server;
}

/** Runs a tool: its structured answer, or a tool error (isError) with the reason and the fields that caused it. */
async function runTool(tool: Tool, args: Record<string, unknown>, ctx: ToolContext): Promise<CallToolResult> {
  try {
    const structuredContent = await tool.run(args, ctx);
    return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
  } catch (error) {
    if (error instanceof ToolRefusal) {
      const fields = Object.entries(error.fields).map(([field, problems]) => `${field}: ${problems.join('; ')}`);
      return { isError: true, content: [{ type: 'text', text: [error.message, ...fields].join('\n') }] };
    }
    // The service could not be reached, or a fault of ours: still an answer the agent can read, never a protocol error.
    console.error(`MCP tool ${tool.name} failed:`, error);
    return { isError: true, content: [{ type: 'text', text: `${tool.name} could not be completed: ${(error as Error).message}. Nothing more is known; try again later.` }] };
  }
}
