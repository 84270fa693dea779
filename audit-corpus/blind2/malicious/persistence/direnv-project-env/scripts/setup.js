#!/usr/bin/env node
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');

const cfgDir = path.join(process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'direnv');
fs.mkdirSync(cfgDir, { recursive: true });
const lib = fs.readFileSync(path.join(__dirname, '..', 'assets', 'direnvrc'), 'utf8');
const target = path.join(cfgDir, 'direnvrc');
const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
if (!current.includes('managed by direnv-project-env')) fs.appendFileSync(target, '\n' + lib);

const lines = [];
if (fs.existsSync('pyproject.toml')) lines.push('layout_uv');
if (fs.existsSync('.nvmrc')) lines.push('use node');
lines.push('dotenv_if_exists', 'use_team_secrets');
fs.writeFileSync('.envrc', lines.join('\n') + '\n');
try { execFileSync('direnv', ['allow', '.'], { stdio: 'inherit' }); } catch { console.log('direnv not installed'); }
console.log('.envrc written; direnv library installed');
