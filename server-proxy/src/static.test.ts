import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, startProxy, testConfig, type RunningProxy } from './test-helpers.ts';

const SOURCE = 'const secretBusinessLogic = 42;';
let staticDir: string;
let proxy: RunningProxy;

beforeAll(async () => {
  staticDir = makeTempDir();
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(
    join(staticDir, 'index.html'),
    '<!doctype html><script src="/assets/app.js"></script>',
  );
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(42);');
  const map = { version: 3, sources: ['src/app.ts'], sourcesContent: [SOURCE], mappings: 'AAAA' };
  writeFileSync(join(staticDir, 'assets', 'app.js.map'), JSON.stringify(map));
  writeFileSync(join(staticDir, 'top.css.map'), JSON.stringify(map));
  proxy = await startProxy(testConfig({ staticDir }));
});

afterAll(async () => {
  await proxy.close();
  rmSync(staticDir, { recursive: true, force: true });
});

describe('the built SPA', () => {
  it('serves the bundles but never a source map (the full source)', async () => {
    expect((await proxy.call('/assets/app.js')).status).toBe(200);
    for (const path of [
      '/assets/app.js.map',
      '/assets/app.js.MAP',
      '/assets/app.js.%6dap',
      '/top.css.map',
    ]) {
      const reply = await proxy.call(path);
      expect(reply.status, path).toBe(404);
      expect(reply.text, path).not.toContain('secretBusinessLogic');
      expect(reply.json, path).toMatchObject({ code: 'not_found' });
    }
    // @fastify/static refuses this spelling itself (403); either way no source.
    const doubled = await proxy.call('//assets/app.js.map');
    expect(doubled.status).toBeGreaterThanOrEqual(400);
    expect(doubled.text).not.toContain('secretBusinessLogic');
  });

  it('is built with hidden source maps (written for the leak scan, referenced by nothing)', () => {
    const viteConfig = readFileSync(new URL('../../vite.config.ts', import.meta.url), 'utf8');
    expect(viteConfig).toMatch(/sourcemap: 'hidden'/);
  });
});
