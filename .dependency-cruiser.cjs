/**
 * Layering rules checked by `npm run lint` (dependency-cruiser). The Hydra layer is the
 * platform every resource uses: it imports the other platform folders (access, config,
 * database, common) and never a feature module, so a feature can change without touching it;
 * the platform's folders form no cycle, and `core/` (records, IRIs, hook types) imports nothing
 * else of the layer. Feature modules may refer to each other (their entities do: a shipment's
 * orders, an order's shipments); the platform never refers to them.
 */
module.exports = {
  forbidden: [
    {
      name: 'hydra-imports-only-the-platform',
      severity: 'error',
      comment: 'src/hydra may import src/access, src/config, src/database and src/common only.',
      from: { path: '^src/hydra/' },
      to: { path: '^src/', pathNot: '^src/(hydra|access|config|database|common)/' },
    },
    {
      name: 'platform-imports-no-feature',
      severity: 'error',
      comment: 'The platform folders (access, config, database, common) import no feature module.',
      from: { path: '^src/(access|config|database|common)/' },
      to: { path: '^src/', pathNot: '^src/(hydra|access|config|database|common)/' },
    },
    {
      name: 'hydra-core-is-the-bottom',
      severity: 'error',
      comment: 'src/hydra/core imports nothing else of the Hydra layer.',
      from: { path: '^src/hydra/core/' },
      to: { path: '^src/hydra/', pathNot: '^src/hydra/core/' },
    },
    {
      name: 'no-platform-folder-cycles',
      severity: 'error',
      comment: 'The folders of the platform (src/hydra/*, access, config, database, common) form no cycle.',
      scope: 'folder',
      from: { path: '^src/(hydra|access|config|database|common)/' },
      to: { path: '^src/(hydra|access|config|database|common)/', circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$' },
    tsPreCompilationDeps: true,
    reporterOptions: { text: { highlightFocused: true } },
  },
};
