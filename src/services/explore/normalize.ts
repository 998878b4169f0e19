// Name matching shared by the crosswalk, ask and similar-rules services: case, spaces and punctuation do not count.
import { distance } from 'fastest-levenshtein';

/** "Adderall XR" -> "adderallxr"; "amphetamine/dextroamphetamine" -> "amphetaminedextroamphetamine". */
export const squash = (s: string): string => s.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]/g, '');

/** The closest names to a misspelt one (edit distance relative to length), best first. */
export function closest(raw: string, names: readonly string[], max = 5): string[] {
  const q = squash(raw);
  if (!q) return [];
  return names
    .map((n) => ({ n, d: distance(q, squash(n)) / Math.max(q.length, squash(n).length), prefix: squash(n).startsWith(q) || q.startsWith(squash(n)) }))
    .filter((x) => x.d <= 0.5 || x.prefix)
    .sort((a, b) => Number(b.prefix) - Number(a.prefix) || a.d - b.d || a.n.localeCompare(b.n))
    .slice(0, max)
    .map((x) => x.n);
}
