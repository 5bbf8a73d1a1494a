import { describe, expect, test } from "vitest";
import { contextMemo } from "./context-memo.server";

describe("contextMemo", () => {
  test("one load per context object; another context loads again; forget reloads; a failure is not kept", async () => {
    const memo = contextMemo<number>();
    let loads = 0;
    const load = async () => ++loads;
    const a = {};
    const b = {};
    expect(await Promise.all([memo.read(a, load), memo.read(a, load)])).toEqual([1, 1]);
    expect(await memo.read(b, load)).toBe(2);
    memo.forget(a);
    expect(await memo.read(a, load)).toBe(3);

    const c = {};
    await expect(memo.read(c, () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await memo.read(c, load)).toBe(4);
  });

  test("a thenable that works on every then (a Drizzle query builder) runs once", async () => {
    const memo = contextMemo<string>();
    let runs = 0;
    const builder = { then: (resolve: (v: string) => void) => resolve(`run ${++runs}`) } as PromiseLike<string>;
    const ctx = {};
    expect(await memo.read(ctx, () => builder)).toBe("run 1");
    expect(await memo.read(ctx, () => builder)).toBe("run 1");
    expect(runs).toBe(1);
  });
});
