// Drives `skillpm mcp` with the reference client of the MCP Skills
// extension (npm `@olaservo/ext-skills`, from modelcontextprotocol/ext-skills)
// and prints what it reports. Run through scripts/mcp-reference-client.sh,
// which installs the packages in a temporary folder and sets the variables.
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import {
  serverSupportsSkills,
  serverSupportsDirectoryRead,
  listSkills,
  getSkill,
  readSkill,
  readSkillResource,
  manifestOf,
  checkSkillLimits,
  walkDirectory,
} from "@olaservo/ext-skills/client";

const bin = process.env.SKILLPM_BIN;
const project = process.env.SKILLPM_PROJECT;
const negotiation = process.env.SKILLPM_NEGOTIATION ?? "auto";
let failures = 0;
const fail = (what) => {
  failures += 1;
  console.log(`FAIL ${what}`);
};

const transport = new StdioClientTransport({
  command: bin,
  args: ["mcp"],
  cwd: project,
  env: { ...process.env },
  stderr: "inherit",
});
const options = negotiation === "auto" ? { versionNegotiation: { mode: "auto" } } : {};
const client = new Client({ name: "skillpm-reference-check", version: "1" }, options);
await client.connect(transport);
console.log(`protocol: ${client.getNegotiatedProtocolVersion?.() ?? "(unknown)"}`);
console.log(`serverSupportsSkills: ${serverSupportsSkills(client)}`);
console.log(`serverSupportsDirectoryRead: ${serverSupportsDirectoryRead(client)}`);
if (!serverSupportsSkills(client)) fail("extension not declared");

const skills = await listSkills(client);
console.log(`skills/list: ${skills.length} skill(s)`);
if (skills.length === 0) fail("no skills listed");
for (const entry of skills) {
  const files = manifestOf(entry) ?? [];
  console.log(`- ${entry.uri} (${files.length} file(s)): ${entry.frontmatter.description}`);
  const limits = checkSkillLimits(entry);
  if (limits && limits.ok === false) fail(`limits: ${JSON.stringify(limits)}`);
  const again = await getSkill(client, entry.uri);
  if (JSON.stringify(again) !== JSON.stringify(entry)) fail(`skills/get differs for ${entry.uri}`);
  const body = await readSkill(client, entry); // digest + frontmatter identity
  console.log(`  readSkill: ${body.length} characters, verified`);
  for (const f of files) {
    if (f.uri === entry.uri) continue;
    await readSkillResource(client, entry, f.uri); // digest + manifest membership
    console.log(`  readSkillResource ${f.uri}: verified`);
  }
  try {
    await readSkillResource(client, entry, entry.uri.replace(/SKILL\.md$/, "never-listed.md"));
    fail("an unlisted file was read");
  } catch (e) {
    console.log(`  unlisted file refused: ${e.message}`);
  }
  if (serverSupportsDirectoryRead(client)) {
    const root = entry.uri.replace(/\/SKILL\.md$/, "");
    const walked = await walkDirectory(client, root);
    console.log(`  walkDirectory ${root}: ${walked.length} file(s)`);
    if (walked.length !== files.length) fail(`directory walk found ${walked.length} files, manifest lists ${files.length}`);
  }
}
try {
  await getSkill(client, "skill://not-a-skill/SKILL.md");
  fail("skills/get answered for an unknown skill");
} catch (e) {
  console.log(`skills/get unknown: ${e.message}`);
}
await client.close();
console.log(failures === 0 ? "reference client: all checks passed" : `reference client: ${failures} check(s) failed`);
process.exit(failures === 0 ? 0 : 1);
