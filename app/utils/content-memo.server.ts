/**
 * Results computed from content that never changes once written, kept in this process's memory:
 * the `capacity` most recently used. An uploaded export is stored once under a fresh random key,
 * so a result read from it is keyed by that storage key and nothing ever invalidates it; a new
 * upload is a new key. Every instance keeps its own entries, and a miss only costs the
 * computation again, so several instances behave alike. Callers sharing one key share one
 * computation; a failed one is not kept. What `get` returns is shared: callers must not change it.
 */
export function createContentMemo<T>(capacity: number) {
  const entries = new Map<string, Promise<T>>();
  return {
    get(key: string, compute: () => Promise<T>): Promise<T> {
      const hit = entries.get(key);
      if (hit) {
        // Map keeps insertion order: re-inserting marks the entry most recently used.
        entries.delete(key);
        entries.set(key, hit);
        return hit;
      }
      const promise = compute();
      entries.set(key, promise);
      promise.catch(() => {
        if (entries.get(key) === promise) entries.delete(key);
      });
      for (const oldest of entries.keys()) {
        if (entries.size <= capacity) break;
        entries.delete(oldest);
      }
      return promise;
    },
    get size() {
      return entries.size;
    },
  };
}
