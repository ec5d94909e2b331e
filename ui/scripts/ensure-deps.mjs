// Runs `npm ci` only when node_modules does not hold exactly what package-lock.json records, so the Maven build
// works offline once the dependencies are installed. The stamp is the lockfile's SHA-256.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const lock = readFileSync('package-lock.json');
const hash = createHash('sha256').update(lock).digest('hex');
const stamp = 'node_modules/.sluice-lock-sha256';
if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === hash) {
  console.log('ui: node_modules matches package-lock.json, skipping npm ci');
} else {
  execFileSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { stdio: 'inherit' });
  writeFileSync(stamp, `${hash}\n`);
}
