// Re-measures every count of issue 14 ("An honest sample corpus") over a generated corpus directory.
//   npx tsx scripts/corpus/audit.ts [fixtures-dir] [--json]
// Each line is one finding of the 2026-11-21 audit, measured the way the audit measured it, so running this on the
// corpus before the fix reproduces the issue's numbers and running it after shows what is left (0, or the reason).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CoverageRuleDoc, JurisdictionDoc } from '../../src/domain/documents.js';

export interface AuditLine {
  finding: string;
  issue: number | null;
  now: number;
  note?: string;
}

const read = <T>(dir: string, name: string): T[] =>
  readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as T);

const MEDICARE_DRUG_PROGRAMS = ['part_d', 'medicare_advantage', 'dual_eligible'];
const WISER = ['AZ', 'NJ', 'OH', 'OK', 'TX', 'WA'];
/** Medicare contractors' and state programs' own sites (not mirrors); everything else must be a .gov address. */
const OFFICIAL_NON_GOV = ['cgsmedicare.com', 'noridianmedicare.com', 'novitas-solutions.com', 'tmhp.com'];
const UNCONFIRMED = /from memory|\[M\]|not confirmed/i;

const reqSig = (r: CoverageRuleDoc): string => JSON.stringify([r.requirement.paRequired, r.requirement.paType, r.requirement.newStartsOnly ?? null, r.requirement.stepTherapy ?? null, r.requirement.quantityLimit ?? null, r.requirement.documentation]);
const key = (r: CoverageRuleDoc, program = r.program): string => `${r.jurisdiction}|${program}|${r.subject.kind}|${r.subject.code}`;

export function audit(dir: string): AuditLine[] {
  // The generator's discipline is audited over its own rules; rules derived from curated facts are checked by the
  // fact loader (official hosts, locators, two reads) and may rightly differ per state.
  const allRules = read<CoverageRuleDoc>(dir, 'rules.ndjson');
  const rules = allRules.filter((r) => !r.evidence?.length);
  const jur = read<JurisdictionDoc>(dir, 'jurisdictions.ndjson');
  const count = (f: (r: CoverageRuleDoc) => boolean): number => rules.filter(f).length;
  const program = rules.filter((r) => !r.payer);
  const byKey = new Map(program.map((r) => [key(r), r]));
  const stateHosts = new Set(jur.map((j) => new URL(j.medicaidAgency.url).host));
  const official = (url: string): boolean => {
    const host = new URL(url).host;
    return host.endsWith('.gov') || stateHosts.has(host) || OFFICIAL_NON_GOV.some((h) => host === h || host.endsWith(`.${h}`));
  };

  // CHIP against the same-state Medicaid rule (FFS when there is one, else MCO), as the audit compared them.
  const chip = program.filter((r) => r.program === 'chip');
  let chipPairs = 0;
  let chipDiff = 0;
  for (const r of chip) {
    const m = byKey.get(key(r, 'medicaid_ffs')) ?? byKey.get(key(r, 'medicaid_mco'));
    if (!m) continue;
    chipPairs++;
    if (m.requirement.paType !== r.requirement.paType) chipDiff++;
  }
  // Part D: rules that differ from the most common requirement for the same subject.
  const partD = new Map<string, CoverageRuleDoc[]>();
  for (const r of program.filter((x) => x.program === 'part_d')) partD.set(r.subject.code, [...(partD.get(r.subject.code) ?? []), r]);
  let partDVaries = 0;
  for (const list of partD.values()) {
    const n = new Map<string, number>();
    for (const r of list) n.set(reqSig(r), (n.get(reqSig(r)) ?? 0) + 1);
    partDVaries += list.length - Math.max(...n.values());
  }
  // MCO drug rules in pharmacy carve-out states against the FFS rule they defer to.
  const carveOut = new Set(jur.filter((j) => j.carveOuts.some((c) => /pharmacy/i.test(c) && /carved|single pharmacy/i.test(c))).map((j) => j.id));
  let mcoPairs = 0;
  let mcoDiff = 0;
  for (const r of program.filter((x) => x.program === 'medicaid_mco' && x.subject.kind === 'drug' && carveOut.has(x.jurisdiction))) {
    const ffs = byKey.get(key(r, 'medicaid_ffs'));
    if (!ffs) continue;
    mcoPairs++;
    if (ffs.requirement.paType !== r.requirement.paType) mcoDiff++;
  }
  // Payer-level rules whose PA answer contradicts their program rule.
  const payer = rules.filter((r) => r.payer);
  const payerContradicts = payer.filter((r) => {
    const p = byKey.get(key(r));
    return p !== undefined && p.requirement.paRequired !== r.requirement.paRequired;
  }).length;
  // WISeR: each state's Original Medicare rule must name that state's own participant.
  const wiserTargets = WISER.map((st) => byKey.get(`${st}|medicare_traditional|service|outpatient_surgery`)?.submission.target ?? '');
  // A WISeR state whose rule comes from curated facts is not the generator's to audit (its route is a fact).
  const wiserShared = wiserTargets.filter((t, i) => t !== '' && (!/participant/i.test(t) || wiserTargets.some((u, j) => j !== i && u === t))).length;
  const tmDme = program.filter((r) => r.program === 'medicare_traditional' && r.subject.code === 'durable_medical_equipment');
  const added2026 = ['E0651', 'E0652', 'L0651', 'L1844', 'L1846', 'L1852', 'L1932'];
  const byStatus = (st: string): number => count((r) => r.verification.status === st);

  return [
    { finding: 'rules in the corpus', issue: 11446, now: allRules.length, note: 'no more hashed gaps: every combination a program administers has a rule' },
    { finding: 'rules with status verified', issue: 11446, now: byStatus('verified') },
    { finding: 'rules with status sample', issue: 0, now: byStatus('sample') },
    { finding: 'illustrative rules (agency home page only) marked verified', issue: 9784, now: count((r) => r.verification.status === 'verified' && r.verification.method === 'illustrative-sample') },
    { finding: 'verified rules whose caveat relies on an unconfirmed fact', issue: null, now: count((r) => r.verification.status === 'verified' && UNCONFIRMED.test(r.verification.caveat ?? '')) },
    { finding: 'HIV antiretrovirals PA-required in Part D, MA or dual', issue: 138, now: count((r) => r.subject.code === 'hiv_antiretrovirals' && MEDICARE_DRUG_PROGRAMS.includes(r.program) && r.requirement.paRequired) },
    { finding: 'pharmacy_standard / specialty_drugs rules on the CMS-0057-F clock', issue: 512, now: count((r) => ['pharmacy_standard', 'specialty_drugs'].includes(r.subject.code) && /CMS-0057/.test(r.turnaround.basis ?? '') && !/excludes drugs/.test(r.turnaround.basis ?? '')) },
    { finding: 'drug-class rules on the CMS-0057-F clock', issue: null, now: count((r) => r.subject.kind === 'drug' && r.requirement.paRequired && /CMS-0057/.test(r.turnaround.basis ?? '') && !/excludes drugs/.test(r.turnaround.basis ?? '')) },
    { finding: 'Traditional Medicare DMEPOS rules missing a CMS-6097-N code (effective 2026-04-13)', issue: null, now: tmDme.filter((r) => !added2026.every((c) => (r.codes ?? []).some((x) => x.code === c))).length, note: `of ${tmDme.length}; the audit found the 7 codes missing in every state` },
    { finding: 'Medicare GLP-1 weight-loss rules that ignore the Medicare GLP-1 Bridge', issue: null, now: count((r) => r.subject.code === 'glp1_weight_loss' && MEDICARE_DRUG_PROGRAMS.includes(r.program) && !/GLP-1 Bridge/.test(r.requirement.criteria)) },
    { finding: '"MCO PA lists no stricter than FFS (42 CFR 438.210)"', issue: 1536, now: count((r) => /no stricter than (FFS|fee-for-service)/i.test(r.requirement.criteria)) },
    { finding: '"MA PA no stricter than Original Medicare"', issue: 850, now: count((r) => /no stricter than Original Medicare/i.test(r.requirement.criteria)) },
    { finding: 'rules citing the timeframe regulation 42 CFR 423.568 as their PA source', issue: 2282, now: count((r) => /423\.568/.test(r.source.url)) },
    { finding: 'MA and dual service rules citing the PA API FAQ for plan PA requirements', issue: 1846, now: count((r) => r.subject.kind === 'service' && ['medicare_advantage', 'dual_eligible'].includes(r.program) && /frequently-asked-questions/.test(r.source.url)) },
    { finding: 'rules citing a non-government mirror', issue: 744, now: count((r) => !official(r.source.url)) },
    { finding: 'CHIP rules that differ from same-state Medicaid', issue: 449, now: chipDiff, note: `of ${chipPairs} CHIP rules with a same-state Medicaid rule` },
    { finding: 'Part D rules that vary by state', issue: 122, now: partDVaries, note: `of ${[...partD.values()].reduce((n, l) => n + l.length, 0)} program-level Part D rules` },
    { finding: 'MCO drug rules in pharmacy carve-out states that differ from FFS', issue: 28, now: mcoDiff, note: `of ${mcoPairs}` },
    { finding: 'payer-level rules contradicting their program rule (PA yes/no)', issue: 57, now: payerContradicts, note: `of ${payer.length} payer-level rules` },
    { finding: 'rules with a fact "from memory" at normal confidence (> 0.45)', issue: 357, now: count((r) => /from memory/i.test(r.verification.caveat ?? '') && r.verification.confidence > 0.45) },
    { finding: 'rules with any unconfirmed fact ("from memory", [M], "not confirmed") above 0.45', issue: null, now: count((r) => UNCONFIRMED.test(r.verification.caveat ?? '') && r.verification.confidence > 0.45) },
    { finding: 'submission targets showing the internal field state_meta.mco_brands', issue: 2287, now: count((r) => /mco_brands/.test(r.submission.target)) },
    { finding: 'WISeR states routed to another state\'s contractor (no state-specific participant named)', issue: 6, now: wiserShared },
  ];
}

function main(): void {
  const args = process.argv.slice(2);
  const dir = resolve(args.find((a) => !a.startsWith('--')) ?? 'fixtures');
  const lines = audit(dir);
  if (args.includes('--json')) {
    process.stdout.write(JSON.stringify(lines, null, 2) + '\n');
    return;
  }
  process.stdout.write(`Issue 14 audit of ${dir}\n\n| Finding | Issue (2026-11-21) | Now |\n|---|---|---|\n`);
  for (const l of lines) process.stdout.write(`| ${l.finding}${l.note ? ` (${l.note})` : ''} | ${l.issue ?? '-'} | ${l.now} |\n`);
}

if (process.argv[1] && /audit\.(ts|js)$/.test(resolve(process.argv[1]))) main();
