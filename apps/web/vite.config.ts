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
  server: {
    proxy: {
      '/api': api,
      '/objects': api,
    },
  },
});
