// One small cache for store reads that may be a little stale (keys, clients, access tokens): entries live `seconds`
// on the injected clock, so a revocation made on another instance is seen within that time; a full cache is cleared
// rather than evicted entry by entry (the working set is small, a miss is one indexed read).
export interface TtlCache<V> {
  /** The cached value, or `load()`'s (cached unless seconds is 0). */
  get(key: string, load: () => Promise<V>): Promise<V>;
  /** The cached value while it is fresh, else undefined (nothing is loaded). */
  peek(key: string): V | undefined;
  delete(key: string): void;
  clear(): void;
}

export function createTtlCache<V>(options: { seconds: number; now: () => Date; max?: number }): TtlCache<V> {
  const max = options.max ?? 10_000;
  const entries = new Map<string, { value: V; until: number }>();
  return {
    async get(key, load) {
      const t = options.now().getTime();
      const hit = entries.get(key);
      if (hit && hit.until > t) return hit.value;
      const value = await load();
      if (options.seconds > 0) {
        if (entries.size >= max) entries.clear();
        entries.set(key, { value, until: t + options.seconds * 1000 });
      }
      return value;
    },
    peek(key) {
      const hit = entries.get(key);
      return hit && hit.until > options.now().getTime() ? hit.value : undefined;
    },
    delete: (key) => void entries.delete(key),
    clear: () => entries.clear(),
  };
}
