/// <reference types="vitest/config" />
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const api = process.env.COLDCHAIN_API ?? 'http://127.0.0.1:8000';

const inPackages = (...names: string[]) => new RegExp(`node_modules[\\/](${names.join('|')})[\\/]`);

/**
 * Libraries get chunks named after them, so a size report says what weighs what. Icons stay out of
 * `blueprint`: each lands with the code that draws it (see blueprintIconsByNameOff).
 */
const VENDORS: { name: string; test: RegExp | ((id: string) => boolean) }[] = [
  { name: 'react', test: inPackages('react', 'react-dom', 'scheduler', 'react-router', 'cookie', 'set-cookie-parser') },
  {
    name: 'blueprint',
    test: (id) =>
      inPackages('@blueprintjs', '@popperjs', 'react-popper', 'react-transition-group', 'react-day-picker', 'date-fns',
        'classnames', 'dom-helpers', 'react-uid', 'react-innertext', 'tslib', 'change-case', 'warning').test(id) &&
      !/[\\/]@blueprintjs[\\/]icons[\\/]lib[\\/]\w+[\\/]generated[\\/]/.test(id),
  },
  // ECharts alone is above the 500 kB a chunk may weigh: its canvas library, zrender, goes apart.
  { name: 'zrender', test: inPackages('zrender') },
  { name: 'echarts', test: inPackages('echarts') },
  { name: 'leaflet', test: inPackages('leaflet') },
  { name: 'query', test: inPackages('@tanstack') },
  { name: 'i18n', test: inPackages('i18next', 'react-i18next', 'html-parse-stringify', 'void-elements') },
  // zod's switch to parsers built without `new Function` goes in zod's own chunk: a shared chunk that
  // builds an object schema as it loads runs before the entry's body would (lib/jitlessZod.ts).
  { name: 'forms', test: (id) => inPackages('react-hook-form', '@hookform', 'zod').test(id) || /[\\/]src[\\/]lib[\\/]jitlessZod\.ts$/.test(id) },
];

/** Each language's catalogues, from every feature, in one chunk fetched when that language is used. */
const LOCALES = {
  debugName: 'locales',
  name: (id: string) => {
    const language = /[\\/](?:[a-z][A-Za-z]*L|l)ocales[\\/]([\w-]+)\.json$/.exec(id)?.[1];
    return language ? `locale-${language}` : null;
  },
};

/**
 * Blueprint's `<Icon icon="add">` fetches the paths of an icon named by a string from chunks that
 * hold all ~600 icons (about 620 kB). The console imports each icon it draws (`<AddIcon />`, and
 * lib/icons.ts for names held as data), so those loaders are replaced by one that refuses: a name
 * that slips through falls back to Blueprint's icon font and logs which icon to import.
 */
function blueprintIconsByNameOff(): Plugin {
  const loader = /[\\/]@blueprintjs[\\/]icons[\\/]lib[\\/]\w+[\\/]paths-loaders[\\/](allPathsLoader|splitPathsBySizeLoader)\.js$/;
  return {
    name: 'blueprint-icons-by-name-off',
    enforce: 'pre',
    load(id) {
      const match = loader.exec(id);
      if (!match) return null;
      return `export const ${match[1]} = async (name) => {
  throw new Error('icon "' + name + '" named by a string: import it from @blueprintjs/icons instead');
};`;
    },
  };
}

const TESTS = 'src/**/*.test.{ts,tsx}';
/** The test files that replace a module (vi.mock), relative to web/. */
const MOCKING = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.test\.tsx?$/.test(file) && /\bvi\.mock\(/.test(readFileSync(join(root, 'src', file), 'utf8')))
  .map((file) => `src/${file.split('\\').join('/')}`);

export default defineConfig({
  root,
  plugins: [react(), blueprintIconsByNameOff()],
  resolve: { alias: { '@': `${root}src` } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [...VENDORS, LOCALES],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': api, '/dataLogDownLoadFile': api },
  },
  test: {
    environment: 'jsdom',
    globals: false,
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    // `make test` runs these beside the Python suites on two cores: a test that types a form of
    // six fields has taken over 5 s there. A broken test still fails, only later.
    testTimeout: 20_000,
    // A worker imports React, Blueprint and the catalogues once for all its files instead of once a
    // file: isolated, three fifths of the suite's time went to importing and making jsdom anew
    // (vitest's own figures, 2026-11-28). A file that replaces a module (vi.mock) would replace it
    // for the files after it too: those run isolated. What a file leaves in the page goes after it
    // (src/test/setup.ts).
    projects: [
      { extends: true, test: { name: 'shared', include: [TESTS], exclude: MOCKING, isolate: false } },
      { extends: true, test: { name: 'isolated', include: MOCKING.length ? MOCKING : ['no-such-file'] } },
    ],
  },
});
