import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip as gzipAsync } from 'node:zlib';
import type { Plugin } from 'vite';

/**
 * Fails `vite build` when a schemas/**\/*.json file is invalid (the same check the dev server and the
 * tests run at start-up): the production bundle then needs no schema validator of its own.
 */
function schemaCheck(): Plugin {
  return {
    name: 'schema-check',
    apply: 'build',
    async buildStart() {
      // The validator is TypeScript shared with the gateway and the tests: loaded through tsx at build time.
      const { tsImport } = await import('tsx/esm/api');
      const loader: typeof import('./src/schema/load-node') = await tsImport('./src/schema/load-node.ts', import.meta.url);
      const validator: typeof import('./src/schema/validate') = await tsImport('./src/schema/validate.ts', import.meta.url);
      const { issues } = loader.validateSchemaDir(fileURLToPath(new URL('.', import.meta.url)));
      if (issues.length > 0) this.error(`Invalid console schemas (${issues.length}):\n${validator.formatIssues(issues)}`);
    },
  };
}

/**
 * Writes .br (quality 11) and .gz (level 9) next to built text files over 1 KiB; the gateway serves them.
 * zlib's asynchronous calls compress the files side by side on libuv's threads (brotli at quality 11 is
 * most of the work: about 9 s for the console's files one after another on one core). The e2e suite's build
 * sets BROTLI_QUALITY=5 (tests/e2e/global-setup.ts): the same files and encodings, in a tenth of the CPU;
 * `npm start` and the bench build at 11, which the bundle budgets measure.
 */
function precompress(outDir = 'dist'): Plugin {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? walk(p) : [p];
    });
  const brotli = promisify(brotliCompress);
  const gzip = promisify(gzipAsync);
  const quality = Number(process.env.BROTLI_QUALITY) || 11;
  return {
    name: 'precompress',
    apply: 'build',
    async closeBundle() {
      const files = walk(resolve(outDir)).filter((f) => /\.(js|css|html|svg|json)$/.test(f) && statSync(f).size > 1024);
      await Promise.all(
        files.map(async (file) => {
          const data = await readFile(file);
          const [br, gz] = await Promise.all([brotli(data, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality } }), gzip(data, { level: 9 })]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

/**
 * `virtual:antd-static.css`: antd's styles (and the console's ProComponents' and Formily's) as one static
 * CSS file in the console theme, which the entry imports first; @ant-design/cssinjs then neither computes
 * nor inserts at run time the styles it holds (scripts/antd-static-style.tsx).
 */
function antdStaticStyle(): Plugin {
  const id = 'virtual:antd-static.css';
  const resolved = '\0antd-static.css';
  let css: Promise<string> | undefined;
  return {
    name: 'antd-static-style',
    resolveId: (source) => (source === id ? resolved : undefined),
    load(source) {
      if (source !== resolved) return undefined;
      css ??= import('tsx/esm/api')
        .then(({ tsImport }) => tsImport('./scripts/antd-static-style.tsx', import.meta.url))
        .then((m: typeof import('./scripts/antd-static-style')) => m.antdStaticCss());
      return css;
    },
  };
}

const gateway = process.env.GATEWAY_URL || 'http://127.0.0.1:8080';

/**
 * Under vitest: the test gateways' in-memory databases start from one initialised cluster instead of each
 * running initdb (src/server/db.ts memoryTemplate), kept per PGlite version in the temp folder.
 */
if (process.env.VITEST && !process.env.PGLITE_MEMORY_TEMPLATE) {
  const { version } = JSON.parse(readFileSync(new URL('./node_modules/@electric-sql/pglite/package.json', import.meta.url), 'utf8')) as { version: string };
  process.env.PGLITE_MEMORY_TEMPLATE = join(tmpdir(), `console-pglite-${version}.cluster`);
}

/**
 * Under vitest: test gateways skip the idle garbage collection (src/server/http/idle-gc.ts). They share
 * their process with the test files, whose heap is many times a gateway's, and a collection of it while a
 * test waits (a parse process, a timer) is CPU the suite does not need; tests/server/idle-gc.test.ts tests
 * the collection with its own settings.
 */
if (process.env.VITEST && process.env.IDLE_GC_SECONDS === undefined) process.env.IDLE_GC_SECONDS = '0';
/** …and the embedded database's upkeep (src/server/http/embedded-upkeep.ts), for the same reason: tests/server/embedded-upkeep.test.ts tests it. */
if (process.env.VITEST && process.env.EMBEDDED_VACUUM_SECONDS === undefined) process.env.EMBEDDED_VACUUM_SECONDS = '0';

/** Under vitest only (`vite build` reads this file too): the slowest test files first. */
const sequencer = process.env.VITEST ? (await import('./tests/vitest/sequencer.ts')).default : undefined;

export default defineConfig(({ command }) => ({
  // Built assets are referenced relatively; the gateway rewrites index.html for the
  // configured base path (window.__APP_CONFIG__.basePath), so one build serves any base.
  base: command === 'build' ? './' : '/',
  plugins: [react(), schemaCheck(), antdStaticStyle(), precompress()],
  server: { proxy: { '/api': gateway } },
  build: {
    outDir: 'dist',
    // The only CSS is antd's extracted styles (antdStaticStyle), compact already (ProComponents' styles,
    // extracted until the lists stopped using them, held rules the minifier refused).
    cssMinify: false,
    rolldownOptions: {
      treeshake: {
        // rc-field-form's entry only sets properties on its own default export (Form.useForm, …). antd's
        // form context imports FormProvider from it, and Tooltip, Menu and Input import that context, so
        // without this every page with a tooltip would load the whole form library.
        moduleSideEffects: [{ test: /[\\/]rc-field-form[\\/]es[\\/]index\.js$/, sideEffects: false }],
      },
      output: {
        codeSplitting: {
          groups: [
            // The libraries the entry imports statically are loaded by every page anyway: two chunks (React,
            // router, MobX, axios, dayjs / antd's core and the rest) compress better than dozens of small
            // ones, and each stays under the 500 kB chunk-size warning. Lazy pages keep the default split.
            {
              name: 'framework',
              tags: ['$initial'],
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|@remix-run|mobx|mobx-react-lite|axios|dayjs)[\\/]/,
              priority: 3,
            },
            { name: 'vendor', tags: ['$initial'], test: /node_modules[\\/]/, priority: 2 },
          ],
        },
      },
    },
  },
  test: {
    // A machine-readable report next to the console one: .ci/run reads its counts; then the ten slowest files.
    reporters: ['default', 'json', './tests/vitest/slowest-files.ts'],
    outputFile: { json: 'test-results/vitest.json' },
    // Two files at a time on the 2-core machines, unit and e2e files side by side (one group: both
    // projects share this worker count), the slowest first (tests/vitest/sequencer.ts). Each worker slot
    // has its own gateway for the e2e files (tests/e2e/global-setup.ts, session.ts).
    maxWorkers: 2,
    sequence: sequencer ? { sequencer } : undefined,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
          testTimeout: 30000,
          // As the server files below: the files of a worker share its loaded modules (antd, React, the
          // runtime), which each file imported again before (unit project alone: 92 → 58 core-seconds).
          // They may: each jsdom file gets its own environment and empties the document after each test
          // (tests/unit/dom.ts), and the one module mock (table-cells) is applied by vitest in either mode;
          // the files passed in shuffled orders this way.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30000,
          // The gateway files share their worker process (modules, the compiled PGlite and Fastify's
          // validators are loaded once per worker, not once per file): a third less time for this project.
          // They may: each starts and closes its own gateway, restores what it sets in process.env, and
          // mocks no module.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/global-setup.ts'],
          setupFiles: ['tests/e2e/worker-gateway.ts'],
          testTimeout: 120000,
          hookTimeout: 600000,
          // Shared modules per worker here too (Playwright's client, the helpers). The one state they keep
          // is the worker's signed-in page (tests/e2e/session.ts useSignedInPage), reset for each file.
          isolate: false,
        },
      },
    ],
  },
}));
