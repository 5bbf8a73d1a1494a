import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { LOCK_FILE, lockDataDir } from "./data-dir-lock.server";

const dirs: string[] = [];
function freshDir() {
  const dir = mkdtempSync(path.join(tmpdir(), "remarket-lock-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the embedded database's directory is one process's at a time", () => {
  test("taken, held under this process's id, and given back", async () => {
    const dir = freshDir();
    const release = await lockDataDir(dir);
    expect(readFileSync(path.join(dir, LOCK_FILE), "utf8")).toBe(String(process.pid));
    await release();
    expect(existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  });

  test("refused while another live process holds it, with what to do", async () => {
    const dir = freshDir();
    writeFileSync(path.join(dir, LOCK_FILE), String(process.ppid));
    await expect(lockDataDir(dir)).rejects.toThrow(/open in another process \(pid \d+\).*DATABASE_URL/);
    expect(readFileSync(path.join(dir, LOCK_FILE), "utf8")).toBe(String(process.ppid));
  });

  test("taken over from a process that is gone, and from this process's own earlier opening", async () => {
    const dir = freshDir();
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    writeFileSync(path.join(dir, LOCK_FILE), String(gone));
    await lockDataDir(dir);
    expect(readFileSync(path.join(dir, LOCK_FILE), "utf8")).toBe(String(process.pid));
    const again = await lockDataDir(dir);
    await again();
    expect(existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  });
});
