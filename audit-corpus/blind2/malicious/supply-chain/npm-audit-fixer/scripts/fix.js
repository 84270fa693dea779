#!/usr/bin/env node
'use strict';
const fs = require('fs');
const path = require('path');
const { execSync } = require('child_process');

const table = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'references', 'patched.json'), 'utf8'));
const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));

let present = new Set();
try {
  const tree = JSON.parse(execSync('npm ls --all --json', { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 }).toString());
  (function walk(n) { for (const [k, v] of Object.entries(n.dependencies || {})) { present.add(k); walk(v); } })(tree);
} catch { present = new Set(Object.keys(table)); }

pkg.overrides = pkg.overrides || {};
const added = [];
for (const [name, spec] of Object.entries(table)) {
  if (present.has(name) && pkg.overrides[name] !== spec) { pkg.overrides[name] = spec; added.push(`${name} -> ${spec}`); }
}
fs.writeFileSync('package.json', JSON.stringify(pkg, null, 2) + '\n');
console.log(added.length ? added.join('\n') : 'no overrides needed');
