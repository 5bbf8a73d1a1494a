import { randomUUID } from "node:crypto";
import { redirect } from "@remix-run/node";
import { describe, expect, test, vi } from "vitest";
import { getDb } from "~/db/client.server";
import { FORM_TOKEN_FIELD, applyOnce } from "./idempotency.server";

function form(fields: Record<string, string>, token: string | null = randomUUID()) {
  const formData = new FormData();
  if (token) formData.set(FORM_TOKEN_FIELD, token);
  for (const [name, value] of Object.entries(fields)) formData.append(name, value);
  return formData;
}

const scope = () => `POST /test/${randomUUID()}`;

describe("applyOnce (one-time form tokens)", () => {
  test("the same token and fields run once and replay the first outcome", async () => {
    const db = await getDb();
    const s = scope();
    const token = randomUUID();
    let runs = 0;
    const run = async () => ({ created: ++runs });
    expect(await applyOnce(db, { scope: s, formData: form({ name: "Ann" }, token) }, run)).toEqual({ created: 1 });
    expect(await applyOnce(db, { scope: s, formData: form({ name: "Ann" }, token) }, run)).toEqual({ created: 1 });
    expect(runs).toBe(1);
  });

  test("the field order does not matter", async () => {
    const db = await getDb();
    const s = scope();
    const token = randomUUID();
    const run = vi.fn(async () => "done");
    await applyOnce(db, { scope: s, formData: form({ a: "1", b: "2" }, token) }, run);
    await applyOnce(db, { scope: s, formData: form({ b: "2", a: "1" }, token) }, run);
    expect(run).toHaveBeenCalledTimes(1);
  });

  test("a redirect is replayed as the same redirect", async () => {
    const db = await getDb();
    const s = scope();
    const token = randomUUID();
    let runs = 0;
    const run = async () => redirect(`/things/${++runs}`, 303);
    const first = (await applyOnce(db, { scope: s, formData: form({ x: "1" }, token) }, run)) as Response;
    const second = (await applyOnce(db, { scope: s, formData: form({ x: "1" }, token) }, run)) as Response;
    expect(runs).toBe(1);
    expect(first.headers.get("Location")).toBe("/things/1");
    expect(second.status).toBe(303);
    expect(second.headers.get("Location")).toBe("/things/1");
  });

  test("a thrown redirect is recorded and replayed as the same redirect", async () => {
    const db = await getDb();
    const s = scope();
    const token = randomUUID();
    const run = vi.fn(async () => {
      throw redirect("/somewhere");
    });
    await expect(applyOnce(db, { scope: s, formData: form({}, token) }, run)).rejects.toBeInstanceOf(Response);
    const replay = await applyOnce(db, { scope: s, formData: form({}, token) }, run);
    expect((replay as Response).headers.get("Location")).toBe("/somewhere");
    expect(run).toHaveBeenCalledTimes(1);
  });

  test("two concurrent submissions run once and both get the first outcome", async () => {
    const db = await getDb();
    const s = scope();
    const token = randomUUID();
    let runs = 0;
    const run = async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 300));
      return { id: runs };
    };
    const [a, b] = await Promise.all([
      applyOnce(db, { scope: s, formData: form({ q: "1" }, token) }, run),
      applyOnce(db, { scope: s, formData: form({ q: "1" }, token) }, run),
    ]);
    expect(runs).toBe(1);
    expect(a).toEqual({ id: 1 });
    expect(b).toEqual({ id: 1 });
  });

  test("different fields with the same token (another form on the page) do run", async () => {
    const db = await getDb();
    const s = scope();
    const token = randomUUID();
    const run = vi.fn(async () => "ok");
    await applyOnce(db, { scope: s, formData: form({ id: "a" }, token) }, run);
    await applyOnce(db, { scope: s, formData: form({ id: "b" }, token) }, run);
    expect(run).toHaveBeenCalledTimes(2);
  });

  test("the same token and fields on another path (scope) run", async () => {
    const db = await getDb();
    const token = randomUUID();
    const run = vi.fn(async () => "ok");
    await applyOnce(db, { scope: scope(), formData: form({ id: "a" }, token) }, run);
    await applyOnce(db, { scope: scope(), formData: form({ id: "a" }, token) }, run);
    expect(run).toHaveBeenCalledTimes(2);
  });

  test("a failure is not recorded: a retry runs again", async () => {
    const db = await getDb();
    const s = scope();
    const token = randomUUID();
    let runs = 0;
    const run = async () => {
      runs++;
      if (runs === 1) throw new Error("database hiccup");
      return "applied";
    };
    await expect(applyOnce(db, { scope: s, formData: form({ n: "1" }, token) }, run)).rejects.toThrow("database hiccup");
    expect(await applyOnce(db, { scope: s, formData: form({ n: "1" }, token) }, run)).toBe("applied");
    expect(runs).toBe(2);
  });

  test("an error response (not a redirect) is not recorded either", async () => {
    const db = await getDb();
    const s = scope();
    const token = randomUUID();
    const run = vi.fn(async () => new Response("nope", { status: 400 }));
    await applyOnce(db, { scope: s, formData: form({}, token) }, run);
    await applyOnce(db, { scope: s, formData: form({}, token) }, run);
    expect(run).toHaveBeenCalledTimes(2);
  });

  test("without a token every submission runs", async () => {
    const db = await getDb();
    const s = scope();
    const run = vi.fn(async () => "ok");
    await applyOnce(db, { scope: s, formData: form({ a: "1" }, null) }, run);
    await applyOnce(db, { scope: s, formData: form({ a: "1" }, null) }, run);
    expect(run).toHaveBeenCalledTimes(2);
  });
});
