/**
 * JSON with object keys sorted, so two documents that differ only in key order compare equal. Properties whose value
 * is undefined are left out, an undefined array member is `null`; every other value is as JSON.stringify writes it.
 * Written as one string built left to right (no per-object arrays of parts): a PAS Claim's dedupe key reads the whole
 * Claim on every $submit (src/services/pas/submit.ts), and the text must stay what it was, or a resubmission would no
 * longer find the submission stored under the earlier key.
 */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  return objectText(value);
}

/** Property names recur (system, code, value...): each is quoted once. Bounded, so odd names cannot grow it. */
const quotedNames = new Map<string, string>();
const MAX_QUOTED = 2048;
function quoted(name: string): string {
  let q = quotedNames.get(name);
  if (q === undefined) {
    q = JSON.stringify(name);
    if (quotedNames.size < MAX_QUOTED) quotedNames.set(name, q);
  }
  return q;
}

const valueText = (v: unknown): string => (v === null || typeof v !== 'object' ? JSON.stringify(v) : objectText(v));

function objectText(value: object): string {
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i) out += ',';
      if (!(i in value)) continue; // a hole: nothing between the commas
      const v: unknown = value[i];
      out += v === undefined ? 'null' : valueText(v);
    }
    return `${out}]`;
  }
  const obj = value as Record<string, unknown>;
  const names = Object.keys(obj);
  if (names.length > 1) names.sort();
  let out = '{';
  let first = true;
  for (const name of names) {
    const v = obj[name];
    if (v === undefined) continue;
    out += `${first ? '' : ','}${quoted(name)}:${valueText(v)}`;
    first = false;
  }
  return `${out}}`;
}
