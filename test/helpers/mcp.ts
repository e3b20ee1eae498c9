/** One MCP tool call over Streamable HTTP, as an assistant makes it with an API key: whether it failed, and its answer. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export async function mcpCall(baseUrl: string, key: string, name: string, args: Record<string, unknown>) {
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }),
  );
  try {
    const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: any };
    return { isError: r.isError === true, body: r.structuredContent };
  } finally {
    await client.close().catch(() => undefined);
  }
}
