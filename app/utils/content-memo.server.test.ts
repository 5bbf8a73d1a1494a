import { describe, expect, test } from "vitest";
import { createContentMemo } from "./content-memo.server";

describe("createContentMemo", () => {
  test("computes a key once, and callers at the same time share the computation", async () => {
    const memo = createContentMemo<number>(4);
    let runs = 0;
    const compute = async () => ++runs;
    const [a, b] = await Promise.all([memo.get("k", compute), memo.get("k", compute)]);
    expect([a, b, await memo.get("k", compute), runs]).toEqual([1, 1, 1, 1]);
  });

  test("keeps the most recently used entries up to its capacity", async () => {
    const memo = createContentMemo<string>(2);
    const computed: string[] = [];
    const get = (key: string) => memo.get(key, async () => (computed.push(key), key));
    await get("a");
    await get("b");
    await get("a"); // a is now newer than b
    await get("c"); // b goes
    await get("a");
    await get("b");
    expect(computed).toEqual(["a", "b", "c", "b"]);
    expect(memo.size).toBe(2);
  });

  test("a failed computation is not kept", async () => {
    const memo = createContentMemo<string>(2);
    await expect(memo.get("k", async () => Promise.reject(new Error("disk")))).rejects.toThrow("disk");
    expect(memo.size).toBe(0);
    expect(await memo.get("k", async () => "ok")).toBe("ok");
  });
});
