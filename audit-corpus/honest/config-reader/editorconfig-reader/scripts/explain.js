const fs = require('fs');
const path = require('path');
const cfg = fs.readFileSync(path.join(process.cwd(), '.editorconfig'), 'utf8');
for (const line of cfg.split('\n')) {
  if (line.includes('=')) console.log(line.trim());
}
