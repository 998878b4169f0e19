// The house's direction (docs/architecture.md): a folder of src/ may import its own layer or lower ones, never a
// higher one, two folders of one layer never import each other (so there is no cycle between folders), and no
// module imports itself back through others.
// Checked by test/unit/architecture.test.ts on every run of the suite; `npx depcruise src` prints the same.
const LAYERS = [
  ['domain'],
  ['config', 'logger'],
  ['store'],
  ['corpus', 'ingest'],
  ['fhir'],
  ['services'],
  ['api'],
  ['http', 'cli'],
  ['app'], // compose: the request handler
  ['service'], // compose: the running service
  ['main'],
];
// A folder (src/x/...) or a top-level file (src/x.ts).
const at = (names) => `^src/(${names.join('|')})(/|\\.ts$)`;

const forbidden = [];
LAYERS.forEach((layer, i) => {
  const higher = LAYERS.slice(i + 1).flat();
  if (higher.length) {
    forbidden.push({
      name: `up-from-${layer.join('-')}`,
      comment: `${layer.join(', ')} may not import a higher layer (${higher.join(', ')})`,
      severity: 'error',
      from: { path: at(layer) },
      to: { path: at(higher) },
    });
  }
  for (const a of layer) {
    const siblings = layer.filter((b) => b !== a);
    if (siblings.length) {
      forbidden.push({
        name: `sideways-from-${a}`,
        comment: `${a} may not import its sibling layer ${siblings.join(', ')}`,
        severity: 'error',
        from: { path: at([a]) },
        to: { path: at(siblings) },
      });
    }
  }
});
forbidden.push({
  name: 'no-circular',
  comment: 'no module imports itself back through others (so no cycle between files either)',
  severity: 'error',
  from: { path: '^(src|capability|fhir-profiles)/' },
  to: { circular: true },
});
forbidden.push({
  name: 'data-only',
  comment: 'capability/ and fhir-profiles/ hold data: they import nothing from src/',
  severity: 'error',
  from: { path: '^(capability|fhir-profiles)/' },
  to: { path: '^src/' },
});

module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|node_modules)/' },
  },
};
