import { describe, expect, test } from "vitest";
import { createLogger, noteSignedIn, withLogScope } from "./log.server";

// Structured logs (issue 18 §4): JSON lines with the request, tenant and user ids, never secrets or personal data.

function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ level: "info", instance: "web-t" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe("structured logs", () => {
  test("a line is one JSON object with its level by name, an ISO time, the instance and the message", () => {
    const { logger, lines } = capture();
    logger.info({ area: "jobs", deleted: 2 }, "deleted expired demo tenants");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "info", instance: "web-t", area: "jobs", deleted: 2, msg: "deleted expired demo tenants" });
    expect(new Date(String(lines[0].time)).toISOString()).toBe(lines[0].time);
  });

  test("inside a request's scope every line carries its id, and the tenant and user once the session is known, across awaits", async () => {
    const { logger, lines } = capture();
    const scope = { requestId: "req-1" };
    await withLogScope(scope, async () => {
      logger.info("before the session");
      await new Promise((resolve) => setTimeout(resolve, 5));
      noteSignedIn("tenant-1", "user-1");
      await Promise.resolve();
      logger.warn("after the session");
    });
    expect(lines[0]).toMatchObject({ requestId: "req-1", msg: "before the session" });
    expect(lines[0]).not.toHaveProperty("tenantId");
    expect(lines[1]).toMatchObject({ requestId: "req-1", tenantId: "tenant-1", userId: "user-1", level: "warn" });
    // The caller's object is the scope: the access log reads what the request learnt.
    expect(scope).toEqual({ requestId: "req-1", tenantId: "tenant-1", userId: "user-1" });
  });

  test("concurrent requests keep their own ids, and nothing outside a scope gets any", async () => {
    const { logger, lines } = capture();
    const request = (id: string, delay: number) =>
      withLogScope({ requestId: id }, async () => {
        await new Promise((resolve) => setTimeout(resolve, delay));
        noteSignedIn(`tenant-${id}`, `user-${id}`);
        logger.info(id);
      });
    await Promise.all([request("a", 10), request("b", 1)]);
    noteSignedIn("nobody", "nobody");
    logger.info("outside");
    expect(lines.map((l) => [l.msg, l.requestId, l.tenantId])).toEqual([
      ["b", "b", "tenant-b"],
      ["a", "a", "tenant-a"],
      ["outside", undefined, undefined],
    ]);
  });

  test("a job's scope names the job and its agency", () => {
    const { logger, lines } = capture();
    withLogScope({ jobId: "job-9", jobType: "import", tenantId: "tenant-2" }, () => logger.error({ attempt: 1 }, "job attempt failed"));
    expect(lines[0]).toMatchObject({ jobId: "job-9", jobType: "import", tenantId: "tenant-2", attempt: 1, level: "error" });
  });

  test("one line's fields stay on that line, never in the scope's later lines", () => {
    const { logger, lines } = capture();
    const scope = { jobId: "job-1" };
    withLogScope(scope, () => {
      logger.info({ pruned: { sessions: 3 } }, "pruned expired records");
      logger.info("job done");
    });
    expect(lines[1]).toEqual(expect.not.objectContaining({ pruned: expect.anything() }));
    expect(scope).toEqual({ jobId: "job-1" });
  });

  test("secrets and personal data are redacted wherever a caller slipped them in, at the top level or one down", () => {
    const { logger, lines } = capture();
    logger.info(
      {
        password: "hunter2",
        authorization: "Bearer abc",
        token: "t0k3n",
        user: { email: "ann@agency.test", phone: "+17085551018", name: "kept" },
        headers: { cookie: "__session=abc" },
      },
      "careless",
    );
    const text = JSON.stringify(lines[0]);
    for (const secret of ["hunter2", "Bearer abc", "t0k3n", "ann@agency.test", "+17085551018", "__session=abc"]) {
      expect(text).not.toContain(secret);
    }
    expect(lines[0]).toMatchObject({ password: "[redacted]", user: { email: "[redacted]", name: "kept" } });
  });

  test("below the configured level nothing is written", () => {
    const lines: string[] = [];
    const logger = createLogger({ level: "warn", instance: "w" }, { write: (line: string) => void lines.push(line) });
    logger.info("quiet");
    logger.warn("loud");
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(["loud"]);
  });
});
