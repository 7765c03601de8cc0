/**
 * Architecture checks run by `npm test` (after the typecheck): no import cycles anywhere, and the
 * one-way rule of the layers: contracts <- domain <- projections <- apps/api, and contracts <- apps/web.
 *   node_modules/.bin/depcruise --config .dependency-cruiser.cjs contracts domain projections apps scripts
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'A cycle ties modules together so neither can change, load or be tested alone.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'contracts-depend-on-nothing-of-ours',
      severity: 'error',
      comment: 'contracts is the bottom layer: web and server share it, it imports no other package of ours.',
      from: { path: '^contracts/' },
      to: { path: '^(domain|projections|apps|scripts)/' },
    },
    {
      name: 'domain-only-on-contracts',
      severity: 'error',
      comment: 'The domain is pure rules over contracts: no read models, no HTTP, no web.',
      from: { path: '^domain/' },
      to: { path: '^(projections|apps|scripts)/' },
    },
    {
      name: 'projections-not-on-apps',
      severity: 'error',
      comment: 'Read models build on domain and contracts; the API builds on them, never the other way.',
      from: { path: '^projections/' },
      to: { path: '^(apps|scripts)/' },
    },
    {
      name: 'api-not-on-web-or-scripts',
      severity: 'error',
      comment: 'The API serves the built web app as files; it imports none of its code, nor the scripts.',
      from: { path: '^apps/api/' },
      to: { path: '^(apps/web|scripts)/' },
    },
    {
      name: 'web-only-on-contracts',
      severity: 'error',
      comment: 'The browser app shares only contracts with the server.',
      from: { path: '^apps/web/' },
      to: { path: '^(domain|projections|apps/api|scripts)/' },
    },
    {
      name: 'reader-thread-stays-light',
      severity: 'error',
      comment:
        "A rebuild's reader thread loads its modules while the build waits: it decodes and opens events, and must not load the read models (projections' index, registry, db), which more than doubled its start-up.",
      from: { path: '^apps/api/src/projections/read-ahead-thread\\.ts$' },
      to: { path: '^projections/src/(index|registry|db)\\.ts$', reachable: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing is a typo or a missing dependency.',
      from: {},
      to: { couldNotResolve: true, dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/|routeTree\\.gen\\.ts$' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
  },
};
