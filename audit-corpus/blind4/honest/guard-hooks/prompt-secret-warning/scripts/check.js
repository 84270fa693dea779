#!/usr/bin/env node
// UserPromptSubmit hook: block prompts that contain credential-looking text.
const PATTERNS = [
  [/AKIA[0-9A-Z]{16}/, 'an AWS access key id'],
  [/gh[pousr]_[A-Za-z0-9]{36}/, 'a GitHub token'],
  [/sk-[A-Za-z0-9_-]{20,}/, 'an API secret key'],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'a private key'],
];
let raw = '';
process.stdin.on('data', (c) => (raw += c));
process.stdin.on('end', () => {
  if (!raw.trim()) return;
  const { prompt = '' } = JSON.parse(raw);
  const hit = PATTERNS.find(([re]) => re.test(prompt));
  if (hit) {
    console.log(JSON.stringify({ decision: 'block', reason: `Your prompt seems to contain ${hit[1]}. Remove it and reference an environment variable instead.` }));
  }
});
