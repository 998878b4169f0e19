// Builds the bundled SAMPLE corpus in fixtures/ (`npm run build` runs it; or `npx tsx scripts/corpus/build.ts`).
// The .ndjson files are build output, not committed: the generator is the source.
// Deterministic: no clock, no unseeded randomness (gaps and variants come from an FNV-1a hash of each key),
// so every run writes byte-identical files. Every record is checked with validateDocument before writing.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CoverageRuleDoc } from '../../src/domain/documents.js';
import { PROGRAMS } from '../../src/domain/vocabulary.js';
import { validateDocument } from '../../src/ingest/validate.js';
import { codeMappings, drugs, events, jurisdictions, payers, topics } from './reference.js';
import { payerLevelRules, programLevelRules } from './rules.js';
import { COMPILED_ON } from './sources.js';

// The project root: the nearest folder holding package.json (this file runs from scripts/ under tsx and from
// dist/scripts/ after the build).
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('package.json not found above scripts/corpus');
    dir = up;
  }
  return dir;
}
const root = projectRoot();
const outDir = join(root, 'fixtures');

export const LOAD_ORDER = [
  'jurisdictions.ndjson', 'payers.ndjson', 'drugs.ndjson', 'code-mappings.ndjson', 'topics.ndjson', 'events.ndjson', 'rules.ndjson',
] as const;

const TOTAL_COMBINATIONS = 51 * PROGRAMS.length * 40;

function check(name: string, docs: readonly object[]): void {
  const seen = new Set<string>();
  docs.forEach((d, i) => {
    const r = validateDocument(d);
    if (!r.ok) throw new Error(`${name} record ${i} (${(d as { id?: unknown }).id}) invalid: ${r.reason}`);
    const id = String((d as { id: unknown }).id);
    if (seen.has(id)) throw new Error(`${name}: duplicate id ${id}`);
    seen.add(id);
  });
}

function ndjson(docs: readonly object[]): string {
  return docs.map((d) => JSON.stringify(d)).join('\n') + '\n';
}

export function coverageStats(rules: readonly CoverageRuleDoc[]) {
  const keys = new Set<string>();
  const perProgram = new Map<string, Set<string>>();
  for (const r of rules) {
    if (r.payer) continue;
    const k = `${r.jurisdiction}|${r.program}|${r.subject.kind}|${r.subject.code}`;
    keys.add(k);
    if (!perProgram.has(r.program)) perProgram.set(r.program, new Set());
    perProgram.get(r.program)!.add(k);
  }
  return {
    covered: keys.size,
    pct: (100 * keys.size) / TOTAL_COMBINATIONS,
    perProgram: Object.fromEntries(PROGRAMS.map((p) => [p, (100 * (perProgram.get(p)?.size ?? 0)) / (51 * 40)])),
  };
}

function readme(stats: ReturnType<typeof coverageStats>, counts: Record<string, number>, payerRules: number, payerStates: number): string {
  const pct = (n: number): string => `${n.toFixed(1)}%`;
  return `# Sample corpus (illustrative, not advice)

This directory holds the **sample** corpus that the service loads on first start. It is an
**illustrative sample** built to exercise every endpoint. **It is not coverage, legal or clinical advice**, it is not a
statement of any payer's current policy, and it must not be used to decide whether a service or drug needs prior
authorization. Always confirm against the cited source.

## What is in it

| File | Kind | Records |
|---|---|---|
${Object.entries(counts).map(([f, n]) => `| ${f} | ${f.replace('.ndjson', '')} | ${n} |`).join('\n')}

Load order is given in \`corpus.json\` (\`files\`). Each line of each \`.ndjson\` file is one canonical document that passes
\`validateDocument\` (src/ingest/validate.ts).

- **Jurisdictions**: all 50 states and DC with the real Medicaid agency and its official home page, the state's program
  names, Medicaid expansion status (non-expansion as of 2025: AL, FL, GA, KS, MS, SC, TN, TX, WI, WY), an FFS-dominant
  flag (no comprehensive risk-based managed care for most enrollees), the WISeR flag (NJ, OH, OK, TX, AZ, WA),
  well-known Medicaid MCO brands and carve-outs. No phone or fax numbers are included because none were verified.
- **Rules**: program-level rules for 51 jurisdictions x 7 programs x 40 subjects (20 drug classes, 20 service
  categories). Coverage is ${pct(stats.pct)} of the ${TOTAL_COMBINATIONS} combinations; the rest are deliberate gaps
  (e.g. dental and long-term care in Medicare Advantage, most drug classes in Traditional Medicare, Part D service
  categories other than pharmacy and specialty drugs, MCO rules in states without MCOs, and scattered state gaps).
  Per program: ${PROGRAMS.map((p) => `${p} ${pct(stats.perProgram[p])}`).join(', ')}.
- **Payer-level rules**: ${payerRules} rules carrying \`payer: {id, name}\` in ${payerStates} states, for real Medicaid MCO
  brands and four national Medicare organizations (Humana, UnitedHealthcare, Aetna Medicare, Wellcare). The names are
  real; the criteria are generic for the class and were **not** taken from those payers' policies.
- **Drugs**: real generic/brand pairs per drug class. RxNorm ingredient codes appear only where the curator was certain.
- **Code mappings**: national, non-overlapping CPT/HCPCS range fallbacks per service category (listed in
  scripts/corpus/reference.ts) and per-state entries for the DMEPOS Required Prior Authorization List codes.
- **Events**: federal dates from reference/regulatory-facts.md (CMS-0057-F, CMS-0062-P, WISeR, DMEPOS and OPD list
  changes, RSNAT) and a per-state CMS-0057-F compliance grid whose status is \`unknown\` (2026 timeframes) or
  \`not_yet_due\` (2027 APIs): no state compliance facts were verified. Where only an effective date is known,
  \`issuedAt\` repeats it.
- **Topics**: nine approved topics and one draft.

## How it was built

\`npx tsx scripts/corpus/build.ts\` generates every file deterministically (no clock, no unseeded randomness; gaps
and variants come from a hash of each key), validates each record and writes the files. Compiled on ${COMPILED_ON}.

Traditional Medicare rules follow the public national lists: the hospital OPD list (42 CFR 419.83), the DMEPOS
Required Prior Authorization List, the RSNAT model, and WISeR in its six states. Part D protected classes are marked
\`federalOverride: true\` with PA/step therapy for new starts only. Turnaround times use federal clocks: CMS-0057-F
(168 h standard / 72 h expedited) for MA, Medicaid and CHIP services; 24 h for Medicaid drug PA (Social Security Act
1927(d)(5)); Part D coverage determinations (72 h / 24 h); DMEPOS and OPD (7 calendar days / 2 business days,
recorded as 48 h). The basis is stated in each rule's \`turnaround.basis\`.

State program rules are **illustrative**: realistic, generic criteria and documentation lists for the class or
category, cited to the state agency's official home page, not to a specific policy document.

## Confidence levels

\`verification.confidence\` (0..1) says how far a rule can be trusted:

- **0.80-0.95**: follows a confirmed federal fact (OPD list, DMEPOS list, RSNAT, WISeR states, Part D protected
  classes, CMS-0057-F dates).
- **0.60-0.70**: derived or partly confirmed (e.g. "no PA in Original Medicare for this category", WISeR service
  details from secondary sources).
- **0.50-0.70**: illustrative sample rules (\`method: "illustrative-sample"\`).
- **0.45 or lower**: relies on a fact recorded from memory and not yet confirmed; the reason is in
  \`verification.caveat\`.

No regulation numbers, dates, phone or fax numbers were invented. Every rule has \`source.url\`,
\`verification.lastVerified\`, a confidence, criteria, a submission target and a turnaround.
`;
}

function main(): void {
  const programRules = programLevelRules();
  const payerRules = payerLevelRules();
  const rules = [...programRules, ...payerRules];
  const files: Record<(typeof LOAD_ORDER)[number], object[]> = {
    'jurisdictions.ndjson': jurisdictions(),
    'payers.ndjson': payers(),
    'drugs.ndjson': drugs(),
    'code-mappings.ndjson': codeMappings(),
    'topics.ndjson': topics(),
    'events.ndjson': events(),
    'rules.ndjson': rules,
  };
  for (const [name, docs] of Object.entries(files)) check(name, docs);

  mkdirSync(outDir, { recursive: true });
  const counts: Record<string, number> = {};
  for (const name of LOAD_ORDER) {
    writeFileSync(join(outDir, name), ndjson(files[name]));
    counts[name] = files[name].length;
  }
  const manifest = {
    name: 'prauth-sample-corpus',
    sample: true,
    compiledOn: COMPILED_ON,
    notice: 'Illustrative sample corpus for demonstration and testing. It is not coverage, legal or clinical advice and does not state any payer\'s current policy; confirm every rule against its cited source before use.',
    files: [...LOAD_ORDER],
  };
  writeFileSync(join(outDir, 'corpus.json'), JSON.stringify(manifest, null, 2) + '\n');
  const stats = coverageStats(rules);
  const payerStates = new Set(payerRules.map((r) => r.jurisdiction)).size;
  writeFileSync(join(outDir, 'README.md'), readme(stats, counts, payerRules.length, payerStates));

  if (!process.argv.includes('--quiet')) console.log(JSON.stringify({ counts, programRules: programRules.length, payerRules: payerRules.length, payerStates, coverage: stats }, null, 2));
}

main();
