import { Readable } from "node:stream";
import { describe, expect, test } from "vitest";
import { readCsv } from "./csv-reader.server";

async function read(chunks: (string | Buffer)[], delimiter?: string) {
  const out = [];
  for await (const r of readCsv(Readable.from(chunks.map((c) => (typeof c === "string" ? Buffer.from(c) : c))), delimiter)) out.push(r);
  return out;
}

const SAMPLE = '\uFEFFa,b,c\r\n1,"x, y",3\r\n\r\n"say ""hi""",,"multi\nline"\n4,5"6,7\r8,9';

describe("CSV reader", () => {
  test("quotes, escaped quotes, line breaks in quotes, blank lines, CRLF / LF / CR, stray quotes", async () => {
    expect(await read([SAMPLE])).toEqual([
      { line: 1, cells: ["a", "b", "c"] },
      { line: 2, cells: ["1", "x, y", "3"] },
      { line: 4, cells: ['say "hi"', "", "multi\nline"] },
      { line: 6, cells: ["4", '5"6', "7"] },
      { line: 7, cells: ["8", "9"] },
    ]);
  });

  test("the same records whatever the chunk boundaries (one byte at a time, UTF-8 split)", async () => {
    const whole = await read([SAMPLE + "\nÉmile,Zoë,ü"]);
    const bytes = Buffer.from(SAMPLE + "\nÉmile,Zoë,ü");
    const single = await read(Array.from(bytes, (b) => Buffer.from([b])));
    expect(single).toEqual(whole);
    expect(whole.at(-1)).toEqual({ line: 8, cells: ["Émile", "Zoë", "ü"] });
  });

  test("other delimiters", async () => {
    expect(await read(["a;b\n1;2\n"], ";")).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 2, cells: ["1", "2"] },
    ]);
  });
});
