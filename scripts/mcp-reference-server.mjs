// A Streamable HTTP skills server on 127.0.0.1 built from the MCP Skills
// extension's reference SDK (npm `@olaservo/ext-skills`), serving the skill
// folders under argv[2]; prints `PORT <n>`. Used by
// scripts/mcp-reference-client.sh to check `skillpm add --source mcp+http://…`.
// One session per process (the SDK's stateful transport), as the check needs.
import http from "node:http";
import { randomUUID } from "node:crypto";
import { McpServer, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { discoverSkills, registerSkillResources } from "@olaservo/ext-skills/server";

const dir = process.argv[2];
const skillMap = discoverSkills(dir);
const server = new McpServer({ name: "reference-skills-server", version: "1" }, { capabilities: { resources: {} } });
registerSkillResources(server, skillMap, dir, { template: true, directoryRead: true });
const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
await server.connect(transport);
const httpServer = http.createServer(async (req, res) => {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
  const body = req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks);
  const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body });
  const response = await transport.handleRequest(request);
  res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) { const { done, value } = await reader.read(); if (done) break; res.write(value); }
  }
  res.end();
});
httpServer.listen(0, "127.0.0.1", () => console.log(`PORT ${httpServer.address().port}`));
