import { beforeAll, describe, test } from "vitest";
import { seedFlaggedBook, type ScopedBook } from "../../../tests/support/book-factories";
import { expectTenantScoped, ids, sorted, twoTenants, type TenantPair } from "../../../tests/support/tenant-scope";
import { listTasks, openTasksCsv, setTaskStatus } from "./tasks.server";

type Seed = ScopedBook & { doneIds: string[] };

// Tasks (the /tasks list and its CSV export) are each tenant's own.
describe("tasks: tenant scope", () => {
  let pair: TenantPair<Seed>;
  beforeAll(async () => {
    pair = await twoTenants(async (t) => {
      const book = await seedFlaggedBook(t.ctx, { tag: t.tag, size: 3, remarketed: 2 + t.index });
      await setTaskStatus(t.ctx, book.taskIds[0], "done");
      return { ...book, doneIds: [book.taskIds[0]] };
    });
  });

  test("listTasks: all, open and done, with totals", async () => {
    await expectTenantScoped(
      pair,
      async (me) => ({
        all: await listTasks(me.ctx, { status: "all", page: 1 }),
        open: await listTasks(me.ctx, { status: "open", page: 1 }),
        done: await listTasks(me.ctx, { status: "done", page: 1 }),
      }),
      (r) => ({
        all: ids(r.all.rows),
        allTotal: r.all.total,
        open: ids(r.open.rows),
        openTotal: r.open.total,
        done: ids(r.done.rows),
        doneTotal: r.done.total,
      }),
      (me) => {
        const open = me.seed.taskIds.filter((id) => !me.seed.doneIds.includes(id));
        return {
          all: sorted(me.seed.taskIds),
          allTotal: me.seed.taskIds.length,
          open: sorted(open),
          openTotal: open.length,
          done: sorted(me.seed.doneIds),
          doneTotal: me.seed.doneIds.length,
        };
      },
    );
  });

  test("the open-tasks CSV export: a line per own open task", async () => {
    await expectTenantScoped(
      pair,
      (me) => openTasksCsv(me.ctx),
      (csv) =>
        csv
          .trimEnd()
          .split("\r\n")
          .slice(1)
          .map((line) => line.split(",")[2])
          .sort(),
      (me) => sorted(me.seed.policyNumbers.slice(1, me.seed.taskIds.length)),
    );
  });
});
