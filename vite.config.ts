/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

const proxyTarget = process.env.VITE_PROXY_TARGET ?? 'http://127.0.0.1:8787';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: {
      '/api': proxyTarget,
      '/healthz': proxyTarget,
      '/readyz': proxyTarget,
    },
  },
  build: {
    // Maps are written next to the bundles (the key-leak scan reads them) but not referenced from
    // them, and the proxy never serves *.map: the full source is not published.
    sourcemap: 'hidden',
    rolldownOptions: {
      output: {
        // Every profile tab is tabs/<tab>/Tab.tsx; name its chunk <Tab>Tab-HASH.js rather than a
        // row of Tab-HASH.js, so bundle reports (scripts/bench-bundle.mjs) and e2e routes can tell
        // the tabs apart.
        chunkFileNames: (chunk) => {
          const tab = /profile\/components\/tabs\/(\w+)\/Tab\.tsx$/.exec(
            chunk.facadeModuleId ?? '',
          );
          const name = tab?.[1] ? `${tab[1][0]?.toUpperCase()}${tab[1].slice(1)}Tab` : '[name]';
          return `assets/${name}-[hash].js`;
        },
      },
    },
  },
  test: {
    // Vitest runs one file at a time on two cores by default (cores − 1): most test files wait on
    // real servers, child processes and timers, so two at a time finish the suite sooner.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'web',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: ['src/lib/service/**'],
          environment: 'jsdom',
          // jsdom renders whole tabs (charts, every curated carrier in a loop): on two busy cores a
          // passing test has taken 5 s, Vitest's default limit; a failing one still fails, later
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'node',
          include: [
            'server-proxy/**/*.test.ts',
            'src/lib/service/**/*.test.ts',
            'scripts/**/*.test.ts',
            'docs/**/*.test.ts',
          ],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
