import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';

// The API serves the built app from the same origin, so every fetch is a relative URL; in `vite dev`
// the proxy gives the same picture with the API on its default port.
const api = 'http://localhost:3000';

export default defineConfig({
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
    react(),
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
