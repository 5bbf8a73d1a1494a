import { describe, test } from "vitest";
import { addTestUser, uniqueEmail } from "../../../tests/support/factories";
import { expectTenantScoped, ids, sorted, twoTenants } from "../../../tests/support/tenant-scope";
import { inviteMember, listMembers, listPendingInvitations } from "./team.server";

// The team page's members and pending invitations are each tenant's own.
describe("team: tenant scope", () => {
  test("members and pending invitations", async () => {
    const pair = await twoTenants(async (t) => {
      const memberIds = [t.user.id];
      for (let i = 0; i <= t.index; i++) memberIds.push((await addTestUser(t.tenant.id)).user.id);
      const invited = [];
      for (let i = 0; i <= t.index; i++) {
        const email = uniqueEmail(`invite-${t.tag}`);
        await inviteMember(t.ctx, { email, role: "staff" });
        invited.push(email);
      }
      return { memberIds, invited };
    });
    await expectTenantScoped(
      pair,
      async (me) => ({ members: await listMembers(me.ctx), invitations: await listPendingInvitations(me.ctx) }),
      (r) => ({ members: ids(r.members), invitations: ids(r.invitations, "email") }),
      (me) => ({ members: sorted(me.seed.memberIds), invitations: sorted(me.seed.invited) }),
    );
  });
});
