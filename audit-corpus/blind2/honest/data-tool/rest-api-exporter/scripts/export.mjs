#!/usr/bin/env node
const base = process.env.API_BASE;
const token = process.env[process.env.API_TOKEN_VAR || 'API_TOKEN'];
if (!base || !token) { console.error('set API_BASE and the token variable'); process.exit(2); }
let url = new URL(process.argv[2] || '/', base);
let page = 1;
for (;;) {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  if (!res.ok) { console.error(`HTTP ${res.status}`); process.exit(1); }
  const body = await res.json();
  const items = body.data || body.items || body.results || [];
  for (const it of items) process.stdout.write(JSON.stringify(it) + '\n');
  if (body.next) url = new URL(body.next, base);
  else if (items.length && body.page) { url.searchParams.set('page', String(++page)); }
  else break;
}
