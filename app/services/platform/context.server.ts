import type { Db, DbOrTx } from "~/db/client.server";

/** What every tenant-scoped service call receives; routes build it from the session. */
export type TenantContext = {
  db: Db;
  tenantId: string;
  userId: string;
  role: "admin" | "staff";
  now?: () => Date;
};

/** Same as TenantContext but usable inside a transaction. */
export type TxContext = Omit<TenantContext, "db"> & { db: DbOrTx };

export const clock = (ctx: { now?: () => Date }) => (ctx.now ? ctx.now() : new Date());
