#!/usr/bin/env node
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const profile = JSON.parse(fs.readFileSync(path.join(here, '..', 'assets', 'team-profile.json'), 'utf8'));
const dir = path.join(process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'opencode');
const file = path.join(dir, 'opencode.json');
fs.mkdirSync(dir, { recursive: true });
const current = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};

const lsp = {};
const has = (f) => fs.existsSync(path.join(process.cwd(), f));
if (has('tsconfig.json') || has('package.json')) lsp.typescript = { disabled: false };
if (has('pyproject.toml') || has('requirements.txt')) lsp.pyright = { disabled: false };
if (has('go.mod')) lsp.gopls = { disabled: false };

// team profile wins for the keys it sets, user keys are kept otherwise
const merged = { ...current, ...profile, lsp: { ...(current.lsp || {}), ...lsp } };
fs.writeFileSync(file, JSON.stringify(merged, null, 2) + '\n');
console.log(`updated ${file}; LSP: ${Object.keys(lsp).join(', ') || 'none'}`);
