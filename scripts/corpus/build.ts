// Builds the bundled SAMPLE corpus in fixtures/ (`npm run build` runs it; or `npx tsx scripts/corpus/build.ts`).
// The .ndjson files are build output, not committed: the generator is the source.
// Deterministic: no clock, no randomness, no hashed variants (one requirement per program and subject), so every
// run writes byte-identical files. Every record is checked with validateDocument before writing.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CoverageRuleDoc } from '../../src/domain/documents.js';
import { PROGRAMS } from '../../src/domain/vocabulary.js';
import { validateDocument } from '../../src/ingest/validate.js';
import { codeMappings, drugs, events, jurisdictions, payers, topics } from './reference.js';
import { COMPILED_ON, SOURCE_NOTES } from './sources.js';
import { audit, type AuditLine } from './audit.js';
import { buildRules } from './facts/build-rules.js';
import { coverageMarkdown } from './facts/coverage.js';
import { coverageOf } from '../../src/domain/coverage.js';
import { projectRootOf } from '../../src/domain/project-root.js';

// The project root (this file runs from scripts/ under tsx and from dist/scripts/ after the build).
const root = projectRootOf(import.meta.url)!;
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

function readme(stats: ReturnType<typeof coverageStats>, counts: Record<string, number>, rules: readonly CoverageRuleDoc[], payerRules: number, payerStates: number, auditLines: readonly AuditLine[]): string {
  const pct = (n: number): string => `${n.toFixed(1)}%`;
  const byStatus = (st: string): number => rules.filter((r) => r.verification.status === st).length;
  const programVerified = rules.filter((r) => !r.payer && r.verification.status === 'verified').length;
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

## Verification status

| Status | Rules | Meaning |
|---|---|---|
| \`verified\` | ${byStatus('verified')} (${programVerified} program-level) | Every claim of the rule rests on curated facts (corpus/facts) read from official sources by one reader and confirmed by a second; docs/coverage.md counts them per state and program. |
| \`sample\` | ${byStatus('sample')} | Illustrative rules (realistic, generic criteria for the class or category) and federal rules only partly confirmed. The caveat says which. |

By default the service serves verified rules only (elsewhere a \`scope_gap\` 404); \`SERVE_SAMPLE_RULES=true\` serves sample rules too, with \`rule_status\` saying which.
The manifest counts rules per status (\`dataset.rules_by_status\`).

## Rules

- **Program-level rules** for 51 jurisdictions x 7 programs x 40 subjects (20 drug classes, 20 service categories).
  Coverage is ${pct(stats.pct)} of the ${TOTAL_COMBINATIONS} combinations. The gaps are structural only: dental, long-term care
  and compounded drugs in Medicare Advantage, weight-loss drugs, dental and long-term care in Traditional Medicare
  (its other drug classes and standard pharmacy repeat the Part D rule, as a separate drug plan covers them), Part D service categories other
  than pharmacy and specialty drugs, MCO rules in states without MCOs, and CHIP long-term care, nursing facility and
  hospice. Per program: ${PROGRAMS.map((p) => `${p} ${pct(stats.perProgram[p])}`).join(', ')}.
- **One requirement per program and subject.** The generator has no per-state, per-payer, hashed or random variants, so
  the sample never contradicts itself: CHIP uses the same-state Medicaid requirement; Part D is identical in every
  state; in a pharmacy carve-out state (CA, MO, NY, OH, TN, WV, WI) the MCO drug rule is the fee-for-service rule; a
  payer-level rule carries its program rule's requirement. test/unit/corpus-consistency.test.ts checks each over every rule.
- **Payer-level rules**: ${payerRules} rules carrying \`payer: {id, name}\` in ${payerStates} states, for real Medicaid MCO brands and four
  national Medicare organizations (Humana, UnitedHealthcare, Aetna Medicare, Wellcare). The names are real; each rule
  repeats its program requirement with the plan's own submission route and was **not** taken from the payer's policy.
- **Submission targets** are written for a provider: the member's plan named on the ID card (with examples), the state
  program or vendor, the DME MAC for the state, and in WISeR states that state's own participant and A/B MAC.
- **Medicare drug rules** say which benefit usually applies (Part B or Part D), including the transplant
  immunosuppressant split (Part B after a Medicare-covered transplant, Part B-ID for eligible kidney recipients, Part D
  otherwise).
- **Clocks**: CMS-0057-F (7 calendar days / 72 h) applies to items and services only; it excludes drugs. Medicaid
  covered outpatient drugs: 24 h (SSA 1927(d)(5)); CHIP drugs: the Medicaid clock, assumed; Part D and MA-PD drugs:
  72 h / 24 h (42 CFR 423.568/423.572); MA Part B drugs: 72 h / 24 h (citation not confirmed, confidence lowered); DMEPOS and
  OPD: 7 calendar days / 2 business days (48 h); the Medicare GLP-1 Bridge: no published clock (0, with the basis saying so).
- **Part D protected classes** are \`federalOverride: true\`; PA or step therapy for new starts only (CMS-4180-F),
  and none for antiretrovirals, which CMS-4180-F leaves out of that allowance.
- **Medicare GLP-1 weight-loss rules** (Part D, MA-PD, duals) follow the Medicare GLP-1 Bridge: PA through the CMS
  central processor, 2026-07-01 to 2027-12-31 (\`effective\`).

## Other records

- **Jurisdictions**: all 50 states and DC with the real Medicaid agency and its official home page, the state's program
  names, Medicaid expansion status (non-expansion as of 2025: AL, FL, GA, KS, MS, SC, TN, TX, WI, WY), an FFS-dominant
  flag, the WISeR flag (NJ, OH, OK, TX, AZ, WA) with the state's participant, well-known Medicaid MCO brands and
  carve-outs. No phone or fax numbers are included because none were verified.
- **Drugs**: real generic/brand pairs per drug class. RxNorm ingredient codes appear only where the curator was certain.
- **Code mappings**: national, non-overlapping CPT/HCPCS range fallbacks per service category (listed in
  scripts/corpus/reference.ts) and per-state entries for the DMEPOS Required Prior Authorization List codes
  (including the CMS-6097-N additions of 2026-04-13).
- **Events**: federal dates (CMS-0057-F, CMS-0062-P, CMS-4180-F, WISeR per state, DMEPOS list changes including
  CMS-6097-N, OPD list changes, RSNAT, the Medicare GLP-1 Bridge start and end) and a per-state CMS-0057-F compliance
  grid whose status is \`unknown\` (2026 timeframes) or \`not_yet_due\` (2027 APIs): no state compliance facts were
  verified (the compliance endpoint reads each as of its date). Where only an effective date is known, \`issuedAt\`
  repeats it. Each event states what it changes (\`paEffect\`: requirement, decision, process, reporting,
  announcement); CMS-0057-F's events apply to services only (\`subjectKinds\`).
- **Topics**: nine approved topics and one draft. A regulation topic states where it applies (\`match.programs\`,
  \`match.jurisdictions\`: WISeR is Original Medicare in its six states).

## Sources

Every rule's \`source\` is the official document that states its PA fact (for a sample rule: the agency or regulation
page where it must be confirmed, titled so). Statute and regulation text comes from ecfr.gov, govinfo.gov or ssa.gov,
never a mirror.

| Fact | Source | Status |
|---|---|---|
${SOURCE_NOTES.map((n) => `| ${n.fact} | ${n.url} | ${n.status} |`).join('\n')}

## How it was built

\`npx tsx scripts/corpus/build.ts\` generates every file deterministically (no clock, no randomness, no hashes),
validates each record and writes the files. Compiled on ${COMPILED_ON}.

## Confidence levels

\`verification.confidence\` (0..1) says how far a rule can be trusted:

- **0.80-0.95**: verified; follows a confirmed federal fact.
- **0.60-0.70**: sample; illustrative (\`method: "illustrative-sample"\`) or partly confirmed / derived (e.g. "no PA in
  Original Medicare for this category").
- **0.45 or lower**: sample resting on a fact recorded from memory or not confirmed; the reason is in
  \`verification.caveat\`.

No regulation numbers, dates, phone or fax numbers were invented. Every rule has \`source.url\`,
\`verification.lastVerified\`, a confidence, criteria, a submission target and a turnaround.

## Audit (issue 14)

\`npx tsx scripts/corpus/audit.ts [dir]\` re-measures each finding of the 2026-11-21 audit over a corpus directory:

| Finding | At the audit | This corpus |
|---|---|---|
${auditLines.map((l) => `| ${l.finding}${l.note ? ` (${l.note})` : ''} | ${l.issue ?? '-'} | ${l.now} |`).join('\n')}
`;
}

function main(): void {
  const { rules, programRules, payerRules, report, factFiles, facts } = buildRules(root);
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
  writeFileSync(join(outDir, 'README.md'), readme(stats, counts, rules, payerRules.length, payerStates, audit(outDir)));
  const table = coverageOf(rules);
  writeFileSync(join(outDir, 'coverage.json'), JSON.stringify({ facts, factFiles, unusedFacts: report.unused, disputedFacts: report.disputed, demoted: report.demoted.length, ...table }, null, 2) + '\n');
  writeFileSync(join(root, 'docs', 'coverage.md'), coverageMarkdown(table));

  if (!process.argv.includes('--quiet')) console.log(JSON.stringify({ counts, programRules: programRules.length, payerRules: payerRules.length, payerStates, coverage: stats, verified: report.verified, partlyTraced: report.partial, demoted: report.demoted.length, unusedFacts: report.unused }, null, 2));
}

main();
