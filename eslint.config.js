// Lint of the web client. Besides the TypeScript and hooks rules it holds bulletproof-react's
// structural rules: a feature never imports another feature (they meet in app/ or through the
// shared components/, hooks/ and lib/, which import no feature), and no module reaches itself
// through its imports.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const FEATURES = './web/src/features';

// One zone per feature, read from the folder, so a new feature is covered the day it appears.
const crossFeatureZones = readdirSync(FEATURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map(({ name }) => ({
    target: `${FEATURES}/${name}`,
    from: FEATURES,
    except: [`./${name}`],
    message: 'features do not import each other: lift the shared part into components/, hooks/ or lib/, or compose both in app/',
  }));

// The shared parts serve every feature, so they know none of them (nor app/, which composes them).
const sharedZone = {
  target: ['./web/src/components', './web/src/hooks', './web/src/lib'],
  from: [FEATURES, './web/src/app'],
  message: 'components/, hooks/ and lib/ are shared: they import no feature and not app/',
};

export default tseslint.config(
  { ignores: ['web/dist/**'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    // The rules of hooks and their dependencies; the React Compiler's own rules (purity, refs,
    // set-state-in-effect, ...) judge code for a compiler this client does not use.
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // Without the TypeScript extensions and parser, no-cycle cannot read .ts modules and sees no cycle.
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'web/tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...crossFeatureZones, sharedZone] }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // `const { dropped: _dropped, ...kept } = value` is how a field is left out of a copy.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
);
