import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { users } from "~/db/schema";
import { inviteMember, listMembers, listPendingInvitations } from "~/services/identity/team.server";
import { action, loader } from "./_app.settings.team";
import { createTestTenant, makeRequest, sessionCookieFor, uniqueEmail } from "../../tests/support/factories";
import { responseOf, unwrapData } from "../../tests/support/route-results";

type Reply = { error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> };
const args = (request: Request) => ({ request, params: {}, context: {} });

/** Tenant B with a second member and a pending invitation, for A to aim at. */
async function otherTenant() {
  const b = await createTestTenant({ name: "Tenant B" });
  const mate = await createTestTenant();
  await b.db.update(users).set({ tenantId: b.tenant.id }).where(eq(users.id, mate.user.id));
  await inviteMember(b.ctx, { email: uniqueEmail("b-invite"), role: "staff" });
  const [invitation] = await listPendingInvitations(b.ctx);
  return { ...b, mateId: mate.user.id, invitationId: invitation.id };
}

describe("/settings/team", () => {
  test("lists only the signed-in tenant's members", async () => {
    const a = await createTestTenant();
    await otherTenant();
    const cookie = await sessionCookieFor(a.user);
    const data = await loader(args(makeRequest("/settings/team", { cookie })));
    expect(data.members.map((m) => m.id)).toEqual([a.user.id]);
    expect(data.invitations).toEqual([]);
  });

  test("another tenant's member or invitation id answers 404 and changes nothing there", async () => {
    const a = await createTestTenant();
    const b = await otherTenant();
    const cookie = await sessionCookieFor(a.user);
    for (const [intent, id] of [
      ["remove", b.mateId],
      ["remove", b.user.id],
      ["revoke", b.invitationId],
    ]) {
      const request = makeRequest("/settings/team", { cookie, form: { intent, id, _formToken: randomUUID() } });
      const response = await responseOf(() => action(args(request)));
      expect(response.status, `${intent} ${id}`).toBe(404);
    }
    expect((await listMembers(b.ctx)).map((m) => m.id).sort()).toEqual([b.user.id, b.mateId].sort());
    expect(await listPendingInvitations(b.ctx)).toHaveLength(1);
  });

  test("a staff member's invitation is refused with 403 and a message", async () => {
    const staff = await createTestTenant({ role: "staff" });
    const cookie = await sessionCookieFor(staff.user);
    const request = makeRequest("/settings/team", { cookie, form: { intent: "invite", email: uniqueEmail(), role: "staff" } });
    const { status, data } = unwrapData<Reply>(await action(args(request)));
    expect(status).toBe(403);
    expect(data.error?.[""]).toEqual(["Only agency admins can manage the team."]);
  });

  test("an invalid invitation keeps the input and names the field", async () => {
    const a = await createTestTenant();
    const cookie = await sessionCookieFor(a.user);
    const request = makeRequest("/settings/team", { cookie, form: { intent: "invite", email: "nope", role: "staff" } });
    const { status, data } = unwrapData<Reply>(await action(args(request)));
    expect(status).toBe(400);
    expect(data.error?.email).toEqual(["Enter a valid e-mail address."]);
    expect(data.initialValue?.email).toBe("nope");
  });

  test("a malformed id is a 400, not a 500", async () => {
    const a = await createTestTenant();
    const cookie = await sessionCookieFor(a.user);
    const request = makeRequest("/settings/team", { cookie, form: { intent: "remove", id: "not-a-uuid" } });
    expect((await responseOf(() => action(args(request)))).status).toBe(400);
  });

  test("signed out, the page sends the visitor to login and back", async () => {
    const response = await responseOf(() => loader(args(makeRequest("/settings/team"))));
    expect(response.headers.get("Location")).toBe("/auth/login?redirectTo=%2Fsettings%2Fteam");
  });
});
