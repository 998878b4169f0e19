// Mutation testing (issue 26) over the security- and decision-critical modules: `npm run mutate`.
// The `mutate` list is the one place that names those modules: keep it in step when they move.
// Stryker copies the project into .stryker-tmp/, mutates the listed files there and runs mocha (with tsx, as
// .mocharc.json does) in-process, each mutant against only the tests that cover it (coverageAnalysis perTest).
// `testFiles` are the specs that exercise these modules directly (unit tests and in-process contract tests);
// end-to-end tests spawn the built service from dist/, which Stryker does not mutate, so they cannot kill mutants.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'mocha',
  testRunnerNodeArgs: ['--import', 'tsx'],
  coverageAnalysis: 'perTest',
  // Static mutants (module-level constants, evaluated once at import) would each rerun every test: about half the
  // run time for 7% of the mutants. They are left out of the run and of the score.
  ignoreStatic: true,
  mutate: [
    // access gate and scope
    'src/services/access-gate.ts',
    'src/domain/named-scope.ts',
    'src/domain/smart-scopes.ts',
    // rate limits
    'src/services/rate-limits.ts',
    'src/services/rate-limit-slots.ts',
    // keys and clients (registry, token endpoint, JWT verification)
    'src/services/keys.ts',
    'src/services/clients/*.ts',
    // PAS item decisions
    'src/fhir/pas/decide-item.ts',
    // CRD coverage information
    'src/fhir/crd/coverage-info.ts',
    // ingest change log
    'src/ingest/change-facts.ts',
    'src/ingest/journal.ts',
  ],
  mochaOptions: {
    spec: [
      'test/unit/named-scope.test.ts',
      'test/unit/smart-scopes.test.ts',
      'test/unit/crd-projection.test.ts',
      'test/unit/fhir-projections.test.ts',
      'test/unit/mutation-*.test.ts',
      'test/contract/access.test.ts',
      'test/contract/smart-access.test.ts',
      'test/contract/clients-store.test.ts',
      'test/contract/scope-first.test.ts',
      'test/contract/crd-hooks.test.ts',
      'test/contract/cds-crd.test.ts',
      'test/contract/pas-workflow.test.ts',
      'test/contract/ingest.test.ts',
      'test/contract/change-feed.test.ts',
      'test/contract/mutants.test.ts',
    ],
  },
  // Stryker checks the instrumented sources with no type checker; tsx strips types, so a mutant that would not
  // type-check still runs (and is usually killed).
  // dist/ is left out but for dist/generated: the structural check's validator is generated there at build time.
  ignorePatterns: ['dist/*', '!dist/generated', '.cache', 'data', '.bench', 'reports'],
  concurrency: 2,
  timeoutMS: 20000,
  timeoutFactor: 2,
  thresholds: { high: 90, low: 80, break: 80 },
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
