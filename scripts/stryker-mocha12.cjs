// Lets @stryker-mutator/mocha-runner 10.0.0 load mocha 12: the runner requires mocha's CLI helpers by their old
// names (lib/cli/run-helpers, lib/cli/options, lib/cli/collect-files), which mocha 12 ships as .cjs files. Loaded
// by scripts/mutate.sh (NODE_OPTIONS --require) for Stryker's processes only; remove it once the runner resolves
// the .cjs names itself.
const Module = require('node:module');
const original = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  try {
    return original.call(this, request, ...rest);
  } catch (err) {
    if (/[\\/]mocha[\\/]lib[\\/]cli[\\/](run-helpers|options|collect-files)$/.test(request)) return original.call(this, `${request}.cjs`, ...rest);
    throw err;
  }
};
