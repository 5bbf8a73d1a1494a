/**
 * A read kept for the life of one context object. A page's loader builds one context per request
 * and hands it to every service it calls, so a fact several services need (the tenant's time zone,
 * its forecast preferences) costs one statement per request. Nothing outlives the request: the
 * next one builds a new context, so another instance's writes are seen as soon as they commit.
 * A service that writes what it memoizes calls `forget(ctx)` so a later read on the same context
 * sees the write.
 */
export function contextMemo<T>() {
  const memo = new WeakMap<object, Promise<T>>();
  return {
    read(ctx: object, load: () => PromiseLike<T>): Promise<T> {
      let value = memo.get(ctx);
      if (!value) {
        // Adopted once into a real promise: Drizzle's query builders are thenables that run their
        // statement again on every `then`, so keeping the builder itself would query on each read.
        value = Promise.resolve(load());
        memo.set(ctx, value);
        // A failed read is not remembered: the next call on this context tries again.
        value.catch(() => memo.delete(ctx));
      }
      return value;
    },
    forget(ctx: object) {
      memo.delete(ctx);
    },
  };
}
