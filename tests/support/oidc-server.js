// A real OpenID Connect provider (the `oidc-provider` package) on loopback for the SSO tests.
// Its built-in development interactions show a plain HTML login form: any login name signs in,
// and the account's e-mail is `<login>@sso.example.test` (login names containing '@' are used as is).
import Provider from "oidc-provider";

const PORT = Number(process.env.OIDC_PORT ?? 3901);
const APP_URL = process.env.APP_URL ?? "http://localhost:3100";
const ISSUER = `http://localhost:${PORT}`;

const provider = new Provider(ISSUER, {
  clients: [
    {
      client_id: "remarket-e2e",
      client_secret: "remarket-e2e-secret",
      redirect_uris: [`${APP_URL}/auth/sso/testidp/callback`],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    },
  ],
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
  features: { devInteractions: { enabled: true } },
  pkce: { required: () => false },
  async findAccount(_ctx, id) {
    const email = id.includes("@") ? id.toLowerCase() : `${id.toLowerCase()}@sso.example.test`;
    return {
      accountId: id,
      async claims() {
        return { sub: id, email, email_verified: true, name: `SSO ${id.split("@")[0]}` };
      },
    };
  },
  // Skip the consent screen for this first-party test client.
  loadExistingGrant: async (ctx) => {
    const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
    if (grantId) return ctx.oidc.provider.Grant.find(grantId);
    const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
    grant.addOIDCScope("openid email profile");
    await grant.save();
    return grant;
  },
});
provider.proxy = false;

const server = provider.listen(PORT, "127.0.0.1", () => {
  console.info(`test OpenID provider on ${ISSUER}`);
});
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => server.close(() => process.exit(0)));
