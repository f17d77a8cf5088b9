// Wipes and recreates the proxy's DATA_DIR before the e2e proxy starts, so every run begins with
// an empty cache, spend ledger, audit log and sandbox state. Refuses paths outside test-results/.
import { mkdirSync, rmSync } from 'node:fs';
import { relative, resolve } from 'node:path';

const target = resolve(process.argv[2] ?? '');
const inside = relative(resolve('test-results'), target);
if (process.argv[2] === undefined || inside === '' || inside.startsWith('..')) {
  console.error(`fresh-data-dir: expected a folder inside test-results/, got "${process.argv[2]}"`);
  process.exit(1);
}
rmSync(target, { recursive: true, force: true });
mkdirSync(target, { recursive: true });
