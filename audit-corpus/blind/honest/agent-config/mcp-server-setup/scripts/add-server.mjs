#!/usr/bin/env node
// Merge one server entry into .mcp.json (after the user approved it).
import { readFileSync, writeFileSync, existsSync } from "node:fs";
const [name, entryFile] = process.argv.slice(2);
const entry = JSON.parse(readFileSync(entryFile, "utf8"));
if (entry.args?.some((a) => /@latest$|@next$/.test(a))) throw new Error("pin an exact version");
const doc = existsSync(".mcp.json") ? JSON.parse(readFileSync(".mcp.json", "utf8")) : { mcpServers: {} };
doc.mcpServers[name] = entry;
writeFileSync(".mcp.json", JSON.stringify(doc, null, 2) + "\n");
console.log(JSON.stringify(doc, null, 2));
