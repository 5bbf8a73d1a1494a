import { afterEach, describe, expect, test } from "vitest";
import { getDb } from "~/db/client.server";
import { getEnv } from "~/env.server";
import { listOutbox, mailDeliveryWarning, sendEmail } from "~/services/platform/email.server";
import { loader } from "./dev.outbox";
import { loader as confirmLoader } from "./auth.confirm-signup";
import { loader as resetLoader } from "./auth.reset-password";
import { makeRequest, uniqueEmail } from "../../tests/support/factories";
import { withEnv } from "../../tests/support/env";
import { responseOf } from "../../tests/support/route-results";

// Issue 12 §1: the outbox holds every tenant's sign-up and reset codes. Only a browser on the
// server's own machine may read it, and only while APP_URL itself is a loopback address.

type Args = Parameters<typeof loader>[0];
const args = (request: Request, socketAddress?: string) => ({ request, params: {}, context: { socketAddress } }) as unknown as Args;

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

async function mailTo() {
  const to = uniqueEmail("outbox");
  await sendEmail(await getDb(), { to, subject: "Your Remarket password reset code", text: "Your code is 123456." });
  return to;
}

describe("/dev/outbox", () => {
  test("a browser on this machine, APP_URL on localhost: the mail is listed", async () => {
    restore = withEnv({ APP_URL: "http://localhost:3000", SMTP_URL: undefined, DEV_OUTBOX: undefined });
    const to = await mailTo();
    const result = await loader(args(makeRequest(`/dev/outbox?to=${encodeURIComponent(to)}`), "127.0.0.1"));
    expect(result.emails.map((e) => e.to)).toEqual([to]);
  });

  test.each(["::1", "::ffff:127.0.0.1"])("the loopback address %s counts as this machine", async (address) => {
    restore = withEnv({ APP_URL: "http://localhost:3000", SMTP_URL: undefined, DEV_OUTBOX: undefined });
    const to = await mailTo();
    const result = await loader(args(makeRequest(`/dev/outbox?to=${encodeURIComponent(to)}`), address));
    expect(result.emails).toHaveLength(1);
  });

  test("a request from another machine is a 404", async () => {
    restore = withEnv({ APP_URL: "http://localhost:3000", SMTP_URL: undefined, DEV_OUTBOX: undefined });
    const to = await mailTo();
    const response = await responseOf(() => loader(args(makeRequest(`/dev/outbox?to=${encodeURIComponent(to)}`), "192.0.2.7")));
    expect(response.status).toBe(404);
  });

  test("forwarded headers claiming loopback do not count, even with TRUST_PROXY", async () => {
    restore = withEnv({ APP_URL: "http://localhost:3000", SMTP_URL: undefined, DEV_OUTBOX: undefined, TRUST_PROXY: "true" });
    const request = makeRequest("/dev/outbox", { headers: { "X-Forwarded-For": "127.0.0.1", "x-remarket-client-ip": "127.0.0.1" } });
    const response = await responseOf(() => loader(args(request, "192.0.2.7")));
    expect(response.status).toBe(404);
  });

  test("a request that came through a proxy on this machine (loopback socket, forwarding headers) is a 404", async () => {
    restore = withEnv({ APP_URL: "http://localhost:3000", SMTP_URL: undefined, DEV_OUTBOX: undefined });
    for (const header of ["X-Forwarded-For", "Forwarded", "X-Real-IP"]) {
      const response = await responseOf(() =>
        loader(args(makeRequest("/dev/outbox", { headers: { [header]: "198.51.100.7" } }), "127.0.0.1")),
      );
      expect(response.status).toBe(404);
    }
  });

  test("without a known socket address (no server in front) it is a 404", async () => {
    restore = withEnv({ APP_URL: "http://localhost:3000", SMTP_URL: undefined, DEV_OUTBOX: undefined });
    const response = await responseOf(() => loader(args(makeRequest("/dev/outbox"))));
    expect(response.status).toBe(404);
  });

  test("APP_URL on a public name: a 404 even from this machine, and mail is not kept for it", async () => {
    restore = withEnv({ APP_URL: "https://remarket.example", SMTP_URL: undefined, DEV_OUTBOX: "true" });
    expect(getEnv().devOutbox).toBe(false);
    const to = await mailTo();
    expect(await listOutbox(await getDb(), { to })).toEqual([]);
    const response = await responseOf(() => loader(args(makeRequest("/dev/outbox"), "127.0.0.1")));
    expect(response.status).toBe(404);
  });
});

describe("where the sign-up and reset pages say the code is", () => {
  test("on this machine with the outbox: a link to it", async () => {
    restore = withEnv({ APP_URL: "http://localhost:3000", SMTP_URL: undefined, DEV_OUTBOX: undefined });
    const confirm = await confirmLoader(args(makeRequest("/auth/confirm-signup?email=a%40example.test"), "127.0.0.1"));
    expect(confirm.codeDelivery).toBe("outbox");
    const reset = await resetLoader(args(makeRequest("/auth/reset-password?sent=1"), "127.0.0.1"));
    expect(reset.codeDelivery).toBe("outbox");
  });

  test("from another machine, or with a public APP_URL and no mail server: ask the administrator", async () => {
    restore = withEnv({ APP_URL: "http://localhost:3000", SMTP_URL: undefined, DEV_OUTBOX: undefined });
    expect((await confirmLoader(args(makeRequest("/auth/confirm-signup"), "192.0.2.7"))).codeDelivery).toBe("administrator");
    restore();
    restore = withEnv({ APP_URL: "https://remarket.example", SMTP_URL: undefined, DEV_OUTBOX: undefined });
    expect((await confirmLoader(args(makeRequest("/auth/confirm-signup"), "127.0.0.1"))).codeDelivery).toBe("administrator");
    expect((await resetLoader(args(makeRequest("/auth/reset-password?sent=1"), "127.0.0.1"))).codeDelivery).toBe("administrator");
  });

  test("with a mail server: by e-mail", async () => {
    restore = withEnv({ APP_URL: "https://remarket.example", SMTP_URL: "smtp://mail.example:587", DEV_OUTBOX: undefined });
    expect((await confirmLoader(args(makeRequest("/auth/confirm-signup"), "127.0.0.1"))).codeDelivery).toBe("email");
  });
});

describe("the start-up warning", () => {
  test("a public APP_URL without a mail server warns once that codes are in the log only", () => {
    restore = withEnv({ APP_URL: "https://remarket.example", SMTP_URL: undefined, DEV_OUTBOX: undefined });
    expect(mailDeliveryWarning(getEnv())).toMatch(
      /SMTP_URL is not set and APP_URL \(https:\/\/remarket\.example\) is not a loopback address: .*server's log only/,
    );
  });

  test("no warning on a laptop (outbox) or with a mail server", () => {
    restore = withEnv({ APP_URL: "http://localhost:3000", SMTP_URL: undefined, DEV_OUTBOX: undefined });
    expect(mailDeliveryWarning(getEnv())).toBeNull();
    restore();
    restore = withEnv({ APP_URL: "https://remarket.example", SMTP_URL: "smtp://mail.example:587", DEV_OUTBOX: undefined });
    expect(mailDeliveryWarning(getEnv())).toBeNull();
  });
});
