import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "~/db/client.server";
import { users } from "~/db/schema";
import { action } from "./auth.signup";
import { createTestTenant, makeRequest, uniqueEmail } from "../../tests/support/factories";
import { responseOf, unwrapData } from "../../tests/support/route-results";

type Reply = { initialValue?: Record<string, unknown>; error?: Record<string, string[] | null> };
const args = (request: Request) => ({ request, params: {}, context: {} });

const form = (overrides: Record<string, string> = {}) => ({
  agencyName: "Route Test Agency",
  name: "Rita Route",
  email: uniqueEmail("route"),
  password: "secret-pass",
  confirmPassword: "secret-pass",
  ...overrides,
});

describe("/auth/signup", () => {
  test("mismatched passwords give a field error; other input is kept, passwords are not", async () => {
    const input = form({ confirmPassword: "something-else" });
    const { status, data } = unwrapData<Reply>(await action(args(makeRequest("/auth/signup", { form: input }))));
    expect(status).toBe(400);
    expect(data.error?.confirmPassword).toEqual(["The passwords do not match."]);
    expect(data.initialValue).toMatchObject({ agencyName: input.agencyName, name: input.name, email: input.email });
    expect(data.initialValue).not.toHaveProperty("password");
    expect(data.initialValue).not.toHaveProperty("confirmPassword");
    const db = await getDb();
    expect(await db.select().from(users).where(eq(users.email, input.email))).toHaveLength(0);
  });

  test("a too-short password is explained on its field", async () => {
    const { status, data } = unwrapData<Reply>(
      await action(args(makeRequest("/auth/signup", { form: form({ password: "123", confirmPassword: "123" }) }))),
    );
    expect(status).toBe(400);
    expect(data.error?.password?.[0]).toMatch(/at least 6 characters/);
  });

  test("an e-mail that already has an account is refused on the e-mail field", async () => {
    const { user } = await createTestTenant();
    const { status, data } = unwrapData<Reply>(await action(args(makeRequest("/auth/signup", { form: form({ email: user.email }) }))));
    expect(status).toBe(409);
    expect(data.error?.email?.[0]).toMatch(/already exists/);
  });

  test("a valid sign-up goes to confirmation", async () => {
    const input = form();
    const response = await responseOf(() => action(args(makeRequest("/auth/signup", { form: input }))));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/auth/confirm-signup?${new URLSearchParams({ email: input.email })}`);
  });
});
