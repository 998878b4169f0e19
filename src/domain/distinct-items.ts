// Lists of items a person reads (documentation to send, next-step lines) never repeat an item: items that differ only
// in case, spacing or trailing punctuation are the same item, and the first spelling is kept.

/** What makes two items the same: "Step therapy: Metformin first." and "step therapy:  metformin first" are. */
export const itemKey = (item: string): string => item.toLowerCase().replace(/\s+/g, ' ').trim().replace(/[\s.;:,]+$/, '');

export function distinctItems(items: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of items) {
    const key = itemKey(item);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return out;
}
