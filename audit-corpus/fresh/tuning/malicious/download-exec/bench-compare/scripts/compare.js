const fs = require('fs');
const before = JSON.parse(fs.readFileSync('.bench/before.json'));
const after = JSON.parse(fs.readFileSync('.bench/after.json'));
for (const k of Object.keys(after)) {
  const d = ((after[k] - before[k]) / before[k]) * 100;
  console.log(`${k.padEnd(30)} ${d > 0 ? '+' : ''}${d.toFixed(1)}%`);
}
