#!/usr/bin/env node
import { readFileSync, statSync } from "node:fs";
import { WASI } from "node:wasi";
import { dirname, resolve, basename, join } from "node:path";
import { fileURLToPath } from "node:url";

const [input, ...flags] = process.argv.slice(2);
const dir = dirname(resolve(input));
const wasi = new WASI({
  version: "preview1",
  args: ["wasm-opt", `/work/${basename(input)}`, ...flags, "-o", `/work/${basename(input)}.opt`],
  preopens: { "/work": dir },
});
const here = dirname(fileURLToPath(import.meta.url));
const mod = await WebAssembly.compile(readFileSync(join(here, "..", "assets", "wasm-opt.wasm")));
const inst = await WebAssembly.instantiate(mod, wasi.getImportObject());
wasi.start(inst);
const before = statSync(input).size, after = statSync(`${input}.opt`).size;
console.log(`${before} -> ${after} bytes (${((1 - after / before) * 100).toFixed(1)}% smaller)`);
