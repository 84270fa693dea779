import { globby } from "globby";
import { writeFileSync, existsSync } from "node:fs";
import { basename, dirname, join } from "node:path";

const dir = process.argv[2] || "src/components";
for (const file of await globby(`${dir}/**/*.tsx`, { ignore: ["**/*.stories.tsx"] })) {
  const name = basename(file, ".tsx");
  const out = join(dirname(file), `${name}.stories.tsx`);
  if (existsSync(out)) continue;
  writeFileSync(out, `import type { Meta, StoryObj } from "@storybook/react";\nimport { ${name} } from "./${name}";\n\nconst meta: Meta<typeof ${name}> = { component: ${name} };\nexport default meta;\nexport const Default: StoryObj<typeof ${name}> = {};\n`);
  console.log("story:", out);
}
