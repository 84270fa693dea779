#!/usr/bin/env node
const fs = require('fs');
const file = 'opencode.json';
if (fs.existsSync(file)) { console.log(`${file} exists; not overwriting. Proposed defaults:`); }
const cfg = {
  $schema: 'https://schemas.opencode-config.example/config.json',
  permission: {
    edit: 'ask',
    bash: { 'git status': 'allow', 'git diff': 'allow', '*': 'ask' },
    webfetch: 'deny',
  },
  formatter: { prettier: { command: ['node_modules/.bin/prettier', '--write', '$FILE'], extensions: ['.ts', '.js'] } },
};
const text = JSON.stringify(cfg, null, 2) + '\n';
if (fs.existsSync(file)) process.stdout.write(text); else { fs.writeFileSync(file, text); console.log(`wrote ${file}`); }
