// The app's structure rules (docs/frontend.md): imports flow lib/components → features → app,
// except that a feature may use app's wiring (the API slice, typed hooks, the root reducer it
// injects into, the UI slice, the page loader's protocol, and the store in its tests); features
// never import each other; no import cycles; plus the React hooks rules and jsx-a11y.
//
// TypeScript is parsed by Babel: TypeScript 7 has no JavaScript API yet, which the
// typescript-eslint parser needs. Type checking stays with `tsc --noEmit`.
import babelParser from '@babel/eslint-parser';
import importPlugin from 'eslint-plugin-import';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import { readdirSync } from 'node:fs';

const features = readdirSync(new URL('./src/features/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Each feature may import itself and the shared layers, never another feature. */
const featureZones = features.map((feature) => ({
  target: `./src/features/${feature}`,
  from: './src/features',
  except: [`./${feature}`],
  message: 'A feature never imports another feature; compose them in app/.',
}));

/** What of app/ a feature may use: its wiring, never the router, layout or pages. */
const appWiringZone = {
  target: './src/features',
  from: './src/app',
  except: ['./api.ts', './hooks.ts', './reducer.ts', './ui-slice.ts', './store.ts', './loader.ts'],
  message: 'A feature uses only app/\'s wiring (api, hooks, reducer, ui-slice, store, loader); app/ composes features.',
};

const sharedZones = ['components', 'lib'].flatMap((shared) => [
  {
    target: `./src/${shared}`,
    from: './src/features',
    message: `${shared}/ is shared by every feature and imports none.`,
  },
  {
    target: `./src/${shared}`,
    from: './src/app',
    message: `${shared}/ is shared below app/ and does not import it.`,
  },
]);

export default [
  { ignores: ['dist/**', 'reports/**', 'node_modules/**', 'coverage/**'] },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: {
      parser: babelParser,
      parserOptions: {
        requireConfigFile: false,
        babelOptions: {
          babelrc: false,
          configFile: false,
          presets: [
            ['@babel/preset-typescript', { isTSX: true, allExtensions: true }],
            ['@babel/preset-react', { runtime: 'automatic' }],
          ],
        },
      },
      ecmaVersion: 2022,
      sourceType: 'module',
    },
    plugins: {
      import: importPlugin,
      'jsx-a11y': jsxA11y,
      'react-hooks': reactHooks,
    },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
      'import/extensions': ['.ts', '.tsx', '.js', '.mjs'],
    },
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'import/no-restricted-paths': ['error', { zones: [...featureZones, appWiringZone, ...sharedZones] }],
      'import/no-cycle': ['error', { ignoreExternal: true }],
      'import/no-self-import': 'error',
    },
  },
];
