import { describe, expect, test } from "vitest";
import { paginationItems, readPage } from "./pagination";

const render = (current: number, count: number) =>
  paginationItems(current, count)
    .map((i) => (i.type === "break" ? "…" : String(i.page)))
    .join(" ");

describe("paginationItems (2 in range, 3 margin pages)", () => {
  test("few pages are all shown", () => {
    expect(render(1, 5)).toBe("1 2 3 4 5");
  });
  test("breaks appear around a middle page", () => {
    expect(render(10, 20)).toBe("1 2 3 … 9 10 … 18 19 20");
  });
  test("a gap of one page shows the page, not a break", () => {
    expect(render(5, 20)).toBe("1 2 3 4 5 … 18 19 20");
  });
  test("no pages, no items", () => {
    expect(paginationItems(1, 0)).toEqual([]);
  });
  test("readPage defaults to 1 on bad input", () => {
    expect(readPage("http://x/?page=abc")).toBe(1);
    expect(readPage("http://x/?page=-2")).toBe(1);
    expect(readPage("http://x/?page=3")).toBe(3);
  });
});
