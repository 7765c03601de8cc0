import { defineConfig, runnerImport } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import type { HtmlTagDescriptor, Plugin } from 'vite';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type * as SignInPage from './src/first-screen/signInPage.ts';

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
 * The sign-in screen's code with the routes that lead there and the texts it reads in either language:
 * one chunk, `first`, which index.html preloads beside the entry. Split, it came in three more waves
 * of small files after the entry had run (route code, then the screen and its imports, then the texts).
 */
const FIRST_SCREEN = [
  /[\\/]routes[\\/](?:_guest\.tsx|_guest[\\/]login\.tsx)\?tsr-split/,
  /[\\/]features[\\/]auth[\\/]LoginScreen\.tsx$/,
  /[\\/]locales[\\/](?:en|hi)[\\/](?:common|errors|auth)\.json$/,
];

/**
 * Home's code and texts: one chunk, `home`, not preloaded. A signed-out visitor (the slow-network
 * target of 3 s) no longer downloads it beside the sign-in screen (about 9 KB brotli, 180 ms at
 * 400 kbps); a signed-in one fetches it when the router matches `/`, beside Home's API reads, which
 * are a round trip too. What Home shares with sign-in stays in `first` (its higher priority).
 */
const HOME_SCREEN = [
  /[\\/]routes[\\/]index\.tsx\?tsr-split/,
  /[\\/]features[\\/]home[\\/]HomeScreen\.tsx$/,
  /[\\/]locales[\\/](?:en|hi)[\\/](?:home|categories)\.json$/,
];

/**
 * `<link rel="modulepreload">` for the `first` chunk: fetched with the entry, not after it has run.
 * The `home` chunk is named in a `<meta name="kamai-shell">` the browser does not fetch: the service
 * worker keeps it at install with index.html's files (public/sw.js), so a return visit to Home reads
 * it from its cache (the page fetched it before the worker was registered).
 */
function preloadFirstScreen(): Plugin {
  return {
    name: 'kamai-preload-first-screen',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (_html, { bundle }) =>
        Object.values(bundle ?? {}).flatMap((chunk): HtmlTagDescriptor[] =>
          chunk.type !== 'chunk'
            ? []
            : chunk.name === 'first'
              ? [{ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${chunk.fileName}` }, injectTo: 'head' as const }]
              : chunk.name === 'home'
                ? [{ tag: 'meta', attrs: { name: 'kamai-shell', content: `/${chunk.fileName}` }, injectTo: 'head' as const }]
                : [],
        ),
    },
  };
}

/**
 * The sign-in screen as HTML in each language (first-screen/signInPage.ts), for the API to serve inside
 * `/login`'s page: usable before the app's script has come (docs/first-screen.md).
 */
function signInHtml(): Plugin {
  const texts = (language: string, namespace: string) =>
    JSON.parse(readFileSync(new URL(`./src/locales/${language}/${namespace}.json`, import.meta.url), 'utf8')) as Parameters<typeof SignInPage.signInPage>[1];
  return {
    name: 'kamai-sign-in-html',
    apply: 'build',
    async generateBundle() {
      // Through Vite's module runner: the page's module imports the contracts' TypeScript, which Node's
      // own loader (the config's) does not take.
      const { module } = await runnerImport<typeof SignInPage>(fileURLToPath(new URL('./src/first-screen/signInPage.ts', import.meta.url)), { configFile: false, logLevel: 'warn' });
      const pages = Object.fromEntries(module.LANGUAGES.map((language) => [language, module.signInPage(language, texts(language, 'common'), texts(language, 'auth'))]));
      this.emitFile({ type: 'asset', fileName: module.FIRST_SCREEN_FILE, source: JSON.stringify(pages) });
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
    signInHtml(),
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
            { name: 'app', tags: ['$initial'], priority: 3 },
            { name: 'first', test: (id) => FIRST_SCREEN.some((pattern) => pattern.test(id)), priority: 2 },
            { name: 'home', test: (id) => HOME_SCREEN.some((pattern) => pattern.test(id)), priority: 1 },
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
