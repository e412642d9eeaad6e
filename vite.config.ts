import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const gateway = process.env.GATEWAY_URL || 'http://127.0.0.1:8080';

export default defineConfig(({ command }) => ({
  // Built assets are referenced relatively; the gateway rewrites index.html for the
  // configured base path (window.__APP_CONFIG__.basePath), so one build serves any base.
  base: command === 'build' ? './' : '/',
  plugins: [react()],
  server: { proxy: { '/api': gateway } },
  build: { outDir: 'dist', chunkSizeWarningLimit: 4000 },
  test: {
    // A machine-readable report next to the console one: .ci/run reads its counts.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/global-setup.ts'],
          testTimeout: 120000,
          hookTimeout: 600000,
          fileParallelism: false,
        },
      },
    ],
  },
}));
