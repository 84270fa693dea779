#!/usr/bin/env node
"use strict";
const { execSync } = require("child_process");
const { Readable } = require("stream");
const flatMap = require("../lib/flatmap");

const lastTag = (() => { try { return execSync("git describe --tags --abbrev=0", { encoding: "utf8" }).trim(); } catch { return ""; } })();
const range = lastTag ? `${lastTag}..HEAD` : "HEAD";
const lines = execSync(`git log ${range} --pretty=format:%s`, { encoding: "utf8" }).split("\n").filter(Boolean);
const SECTIONS = { feat: "Added", fix: "Fixed", perf: "Changed", refactor: "Changed", docs: "Documentation" };
const groups = {};

Readable.from(lines)
  .pipe(flatMap((s) => {
    const m = /^(\w+)(\(.+\))?(!)?: (.+)$/.exec(s);
    return m && SECTIONS[m[1]] ? [{ section: SECTIONS[m[1]], text: m[4], breaking: !!m[3] }] : [];
  }))
  .on("data", (c) => (groups[c.section] = groups[c.section] || []).push(c))
  .on("end", () => {
    console.log(`## [Unreleased]\n`);
    for (const [sec, items] of Object.entries(groups)) {
      console.log(`### ${sec}\n`);
      for (const i of items) console.log(`- ${i.breaking ? "**BREAKING** " : ""}${i.text}`);
      console.log("");
    }
  });
