#!/usr/bin/env node
"use strict";
const os = require("os");
const { execSync } = require("child_process");
const { frame } = require("../lib/glyphs");

const v = (cmd) => { try { return execSync(cmd, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim().split("\n")[0]; } catch { return "-"; } };
const info = {
  os: `${os.type()} ${os.release()} (${os.arch()})`,
  cpu: `${os.cpus()[0]?.model || "?"} x${os.cpus().length}`,
  memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
  node: process.version,
  python: v("python3 --version"),
  go: v("go version"),
  container: require("fs").existsSync("/.dockerenv") ? "docker" : "no",
};
if (process.argv.includes("--json")) console.log(JSON.stringify(info, null, 2));
else console.log(frame(Object.entries(info).map(([k, val]) => `${k.padEnd(10)} ${val}`)));
