import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import type { Plugin } from 'vite';

// The API serves the built app from the same origin, so every fetch is a relative URL; in `vite dev`
// the proxy gives the same picture with the API on its default port.
const api = 'http://localhost:3000';

// The production build runs on Preact (preact/compat) instead of react-dom: about 55 KB gzip less in
// the first screen's JavaScript, which keeps it under the 100 KB budget (docs/libraries.md).
// `vite dev` runs on Preact too, so what a developer sees is what ships; the price is a full page
// reload on edits (React Fast Refresh does not drive Preact). The types stay @types/react. Preact 11, not 10.x:
// 10's portals render as a separate root, so useId inside a Radix dialog repeated the page's ids.
const preactCompat = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react$/, replacement: 'preact/compat' },
  // recharts asks react-is whether a child is a Fragment; react-is 19 knows only React 19's elements.
  { find: /^react-is$/, replacement: 'preact/compat' },
];

/**
 * The code of the two screens `/` and `/login` show (sign-in, Home) with the routes that lead there
 * and the texts those screens read in either language: one chunk, `first`, which index.html preloads
 * beside the entry. Split, they came in three more waves of small files after the entry had run
 * (route code, then the screen and its imports, then the texts). A sign-in visitor gets Home's code
 * too (and a Hindi reader the English texts): a few KB, cheaper than one round trip at 400 ms.
 */
const FIRST_SCREEN = [
  /[\\/]routes[\\/](?:_guest\.tsx|_guest[\\/]login\.tsx|index\.tsx)\?tsr-split/,
  /[\\/]features[\\/](?:auth[\\/]LoginScreen|home[\\/]HomeScreen)\.tsx$/,
  /[\\/]locales[\\/](?:en|hi)[\\/](?:common|errors|auth|home|categories)\.json$/,
];

/** `<link rel="modulepreload">` for the `first` chunk: fetched with the entry, not after it has run. */
function preloadFirstScreen(): Plugin {
  return {
    name: 'kamai-preload-first-screen',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (_html, { bundle }) =>
        Object.values(bundle ?? {})
          .filter((chunk) => chunk.type === 'chunk' && chunk.name === 'first')
          .map((chunk) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${chunk.fileName}` }, injectTo: 'head' as const })),
    },
  };
}

export default defineConfig({
  resolve: { alias: preactCompat },
  plugins: [
    // Must come before the React plugin: it rewrites route files for code splitting.
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: './src/routes',
      generatedRouteTree: './src/routeTree.gen.ts',
      quoteStyle: 'single',
      semicolons: true,
    }),
    // JSX and TypeScript only: Fast Refresh is React's, so every module is left out of it.
    react({ refreshExclude: /./ }),
    tailwindcss(),
    preloadFirstScreen(),
  ],
  build: {
    rolldownOptions: {
      treeshake: {
        // The contracts are schemas and constants: a module none of whose exports a chunk uses adds
        // nothing to it, and an unused valibot schema (`v.object(...)` at the top of a module) is
        // dropped too. Keeps the whole contract set out of the first download for one error schema.
        moduleSideEffects: [{ test: /\/contracts\/src\//, sideEffects: false }],
        manualPureFunctions: ['v'],
      },
      output: {
        codeSplitting: {
          groups: [
            // Everything the entry imports statically, in one file: on a slow network each file is a
            // request of its own (six at a time over HTTP/1.1, each waiting a round trip), and the
            // first screen waited for four waves of small ones (docs/first-screen.md).
            { name: 'app', tags: ['$initial'], priority: 2 },
            { name: 'first', test: (id) => FIRST_SCREEN.some((pattern) => pattern.test(id)), priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': api,
      '/objects': api,
    },
  },
});
