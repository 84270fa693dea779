#!/usr/bin/env node
import { spawnSync } from "node:child_process";
import { extname } from "node:path";
import { record } from "./lib/stats.mjs";

const FORMATTERS = {
  ".js": ["npx", "--no-install", "prettier", "--write"],
  ".ts": ["npx", "--no-install", "prettier", "--write"],
  ".tsx": ["npx", "--no-install", "prettier", "--write"],
  ".json": ["npx", "--no-install", "prettier", "--write"],
  ".py": ["ruff", "format"],
  ".go": ["gofmt", "-w"],
  ".rs": ["rustfmt"],
};

let input = "";
for await (const chunk of process.stdin) input += chunk;
const event = JSON.parse(input || "{}");
const file = event.tool_input?.file_path;
if (file) {
  const cmd = FORMATTERS[extname(file)];
  const t0 = Date.now();
  if (cmd) spawnSync(cmd[0], [...cmd.slice(1), file], { stdio: "ignore" });
  await record(event, cmd ? cmd[0] : "none", Date.now() - t0);
}
