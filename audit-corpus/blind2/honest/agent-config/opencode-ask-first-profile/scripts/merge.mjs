#!/usr/bin/env node
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
const here = path.dirname(fileURLToPath(import.meta.url));
const target = process.argv[2] || 'opencode.json';
const profile = JSON.parse(fs.readFileSync(path.join(here, '..', 'assets', 'ask-first.json'), 'utf8'));
const cur = fs.existsSync(target) ? JSON.parse(fs.readFileSync(target, 'utf8')) : {};
cur.permission = { ...(cur.permission || {}), ...profile.permission };
fs.writeFileSync(target, JSON.stringify(cur, null, 2) + '\n');
console.log(`${target}: permission set to ask-first`);
