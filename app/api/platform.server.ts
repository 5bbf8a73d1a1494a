import { Readable } from "node:stream";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { z } from "zod";
import { apiListConnections } from "~/services/connections/connections-api.server";
import { generateSampleExport, sampleAsOf } from "~/services/connections/sample-export.server";
import { listMembers } from "~/services/identity/team.server";
import { clock } from "~/services/platform/context.server";
import { createDeepLink, verifyDeepLink } from "~/services/platform/deeplinks.server";
import { ServiceError } from "~/services/platform/errors.server";
import { NOTIFICATION_SORT, NOTIFICATIONS_PAGE_SIZE, listNotifications, notify } from "~/services/platform/notifications.server";
import { defineOperation } from "~/utils/api.server";
import { multiLineText, singleLineText } from "~/utils/schemas";
import { cursorQuery, LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX } from "~/utils/cursor.server";

// Notifications, deep links, the organization and the sample export (seed §7 "Paths").

const page = z.coerce
  .number({ error: "page must be a number." })
  .int("page must be a whole number.")
  .min(1, "page starts at 1.")
  .default(1);

export const notificationsList = defineOperation({
  method: "GET",
  path: "/api/notifications",
  tag: "Notifications",
  summary: `The caller's notifications, newest first (or sort): unread (default) or read, paged by limit (default ${LIST_LIMIT_DEFAULT}, at most ${LIST_LIMIT_MAX}) and cursor (nextCursor of the previous page), or page (${NOTIFICATIONS_PAGE_SIZE} a page)`,
  input: z.object({
    filter: z.enum(["unread", "read"], { error: "filter is unread or read." }).default("unread"),
    sort: NOTIFICATION_SORT.query,
    page,
    ...cursorQuery,
  }),
  run: async (ctx, input) => {
    const { notifications, total, nextCursor } = await listNotifications(ctx, input);
    // data stays the array of the original spec: nextCursor sits beside total and page.
    return { data: notifications, total, page: input.page, nextCursor };
  },
});

export const notificationsCreateGroup = defineOperation({
  idempotent: true,
  method: "POST",
  path: "/api/notifications/create/group",
  tag: "Notifications",
  summary: "A notification for everyone in the agency (admins only)",
  input: z.object({
    title: singleLineText({ error: "title is required." }).min(1, "title is required.").max(200),
    message: multiLineText().max(2000).default(""),
    link: z
      .string()
      .regex(/^\/(?!\/)/, "link is a path inside the app.")
      .max(500)
      .optional(),
  }),
  status: 201,
  run: async (ctx, input) => {
    if (ctx.role !== "admin") throw new ServiceError("Only agency admins can notify the whole agency.", 403);
    return { data: await notify(ctx.db, { tenantId: ctx.tenantId, userId: null, kind: "announcement", ...input }) };
  },
});

export const deepLinkCreate = defineOperation({
  idempotent: true,
  method: "POST",
  path: "/api/deeplinks",
  tag: "Notifications",
  summary: "A signed deep link to a page of the app, valid 7 days (the links in notification e-mails)",
  input: z.object({ target: z.string({ error: "target is required." }).max(500) }),
  status: 201,
  response: z.object({ data: z.object({ id: z.string(), expiresAt: z.string() }) }),
  run: async (ctx, input) => {
    const link = createDeepLink(ctx, input.target);
    return { data: { id: link.id, expiresAt: link.expiresAt.toISOString() } };
  },
});

const verify = (method: "GET" | "POST") =>
  defineOperation({
    method,
    path: "/api/deeplinks/{id}/verify",
    tag: "Notifications",
    summary: "Verify a deep link: its target, or 404 (forged, another agency's) or 410 (expired)",
    input: z.object({ id: z.string() }),
    response: z.object({ data: z.object({ target: z.string(), expiresAt: z.string() }) }),
    run: async (ctx, input) => {
      const link = verifyDeepLink(ctx, input.id);
      return { data: { target: link.target, expiresAt: link.expiresAt.toISOString() } };
    },
  });
export const deepLinkVerify = verify("GET");
export const deepLinkVerifyPost = verify("POST");

export const organization = defineOperation({
  method: "GET",
  path: "/api/v2/connections/organization",
  tag: "Connections",
  summary: "The caller's agency: its name, members and connections",
  run: async (ctx) => {
    const [members, connections] = await Promise.all([listMembers(ctx), apiListConnections(ctx)]);
    return {
      data: {
        id: ctx.auth.tenant.id,
        name: ctx.auth.tenant.name,
        isDemo: ctx.auth.tenant.isDemo,
        members: members.map((m) => ({ id: m.id, name: m.name, email: m.email, role: m.role })),
        connections,
      },
    };
  },
});

export const ezlynxSampleCsv = defineOperation({
  method: "GET",
  path: "/api/integrations/ezlynx/sample-csv",
  tag: "Connections",
  summary: "A generated EZLynx-style export to try the import with (CSV download), its terms built around today",
  input: z.object({
    rows: z.coerce
      .number({ error: "rows must be a number." })
      .int()
      .min(10, "rows is 10 to 5000.")
      .max(5000, "rows is 10 to 5000.")
      .default(120),
  }),
  produces: "text/csv",
  run: async (ctx, input) => {
    const stream = Readable.from(generateSampleExport({ policies: input.rows, asOf: sampleAsOf(clock(ctx)) }));
    return new Response(createReadableStreamFromReadable(stream), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": 'attachment; filename="ezlynx-sample-export.csv"',
      },
    });
  },
});

const gone = (method: "GET" | "POST", path: string, summary: string, reason: string) =>
  defineOperation({ method, path, tag: "Retired", summary, auth: "gone", gone: reason });

export const retired = [
  gone(
    "POST",
    "/api/getFirebaseCreds",
    "Retired: backend configuration for the browser",
    "Remarket has no Firebase: the server holds its configuration and signs users in itself. Use POST /api/auth/login.",
  ),
  gone(
    "POST",
    "/api/tenants/create-and-assign",
    "Retired: create a tenant and assign the user",
    "Sign-up creates the agency and its admin (POST /api/auth/signup); the original client never called this.",
  ),
  gone(
    "POST",
    "/api/auth/verify-firebase-token",
    "Retired: verify a Firebase token",
    "Remarket issues its own bearer tokens: verify them with POST /api/auth/verify-token.",
  ),
  gone(
    "POST",
    "/api/user/create",
    "Retired: create a social-login user",
    "Single sign-on creates users through the browser flow at /auth/sso/{provider}; API clients sign up with POST /api/auth/signup.",
  ),
  gone(
    "POST",
    "/api/storage/update-yml",
    "Retired: upload parse settings as a YAML file to storage",
    "Parse settings are per domain in the database: use POST /api/files/config.",
  ),
];
