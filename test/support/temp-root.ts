// Every temporary directory a test run makes (mkdtempSync(tmpdir()), the data directories of the servers it spawns,
// which inherit TMPDIR) goes under one directory of its own, removed when the run ends: runs never fill the disk.
// Loaded by .mocharc.json before any test file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = mkdtempSync(join(tmpdir(), 'prauth-test-run-'));
process.env.TMPDIR = root; // os.tmpdir() reads it on every call, and spawned processes inherit it

const remove = (): void => rmSync(root, { recursive: true, force: true });

/** Mocha's global teardown: after the last test, before the forced exit. */
export function mochaGlobalTeardown(): void {
  remove();
}
// Also when the run is interrupted or exits early.
process.on('exit', remove);
