import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';

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
    },
  },
  server: {
    proxy: {
      '/api': api,
      '/objects': api,
    },
  },
});
