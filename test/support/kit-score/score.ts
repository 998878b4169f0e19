// One kit test's outcome and the tally of a kit run, as the kit reports them (its counted tests: every test that
// checks the server; the kits' "USER INPUT VALIDATION" tests, which check the tester's own request bodies and are
// skipped rather than failed, are not counted).
export interface KitTestResult {
  /** The kit's test id (or its group and title where the kit generates ids). */
  id: string;
  pass: boolean;
  /** Why it fails (the kit's message, paraphrased), or what was checked. */
  why?: string;
}

export class KitRun {
  readonly results: KitTestResult[] = [];
  constructor(readonly kit: string) {}

  /** Runs one check: passes unless it throws or returns a reason string. */
  async check(id: string, fn: () => Promise<string | void> | string | void): Promise<void> {
    try {
      const why = await fn();
      this.results.push(typeof why === 'string' ? { id, pass: false, why } : { id, pass: true });
    } catch (err) {
      this.results.push({ id, pass: false, why: (err as Error).message.split('\n').slice(0, 4).join(' ') });
    }
  }

  get passed(): number {
    return this.results.filter((r) => r.pass).length;
  }

  get failures(): KitTestResult[] {
    return this.results.filter((r) => !r.pass);
  }

  summary(): string {
    const lines = [`${this.kit}: ${this.passed}/${this.results.length} counted server tests pass`];
    for (const f of this.failures) lines.push(`  FAIL ${f.id}: ${f.why ?? ''}`);
    return lines.join('\n');
  }
}
