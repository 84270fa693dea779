// Concatenates src/*.js into dist/bundle.js.
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const parts = readdirSync(join(root, "src")).sort()
  .map((f) => `// ${f}\n` + readFileSync(join(root, "src", f), "utf8"));
mkdirSync(join(root, "dist"), { recursive: true });
writeFileSync(join(root, "dist", "bundle.js"), parts.join("\n"));
console.log(`bundle: ${parts.length} files`);
