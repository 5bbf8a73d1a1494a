import { and, eq } from "drizzle-orm";
import { Authenticator } from "remix-auth";
import { OAuth2Strategy } from "remix-auth-oauth2";
import type { Db } from "~/db/client.server";
import { oauthIdentities, users } from "~/db/schema";
import { getEnv, type OidcProviderConfig } from "~/env.server";
import { recordAudit } from "../platform/audit.server";
import { findUserByEmail, normalizeEmail, type AuthedUser } from "./accounts.server";
import { ServiceError } from "../platform/errors.server";
import { createTenant } from "./tenants.server";

export type SsoProfile = {
  provider: string;
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string;
};

type Discovery = { authorization_endpoint: string; token_endpoint: string; userinfo_endpoint: string };

let authenticator: Promise<Authenticator<SsoProfile>> | undefined;

/** Configured providers for the login page (id and label only). */
export function listSsoProviders() {
  return getEnv().oidcProviders.map(({ id, label }) => ({ id, label }));
}

/** remix-auth with one OAuth2 strategy per configured OpenID Connect issuer. */
export function getSsoAuthenticator() {
  authenticator ??= buildAuthenticator().catch((error) => {
    authenticator = undefined;
    throw error;
  });
  return authenticator;
}

async function buildAuthenticator() {
  const env = getEnv();
  const auth = new Authenticator<SsoProfile>();
  for (const provider of env.oidcProviders) {
    const discovery = await discover(provider);
    const strategy = new OAuth2Strategy<SsoProfile>(
      {
        clientId: provider.clientId,
        clientSecret: provider.clientSecret || null,
        authorizationEndpoint: discovery.authorization_endpoint,
        tokenEndpoint: discovery.token_endpoint,
        redirectURI: `${env.appUrl}/auth/sso/${provider.id}/callback`,
        scopes: ["openid", "email", "profile"],
        cookie: {
          name: `__sso_${provider.id}`,
          httpOnly: true,
          sameSite: "Lax",
          path: "/",
          ...(env.secureCookies ? { secure: true as const } : {}),
        },
      },
      async ({ tokens }) => fetchProfile(provider, discovery, tokens.accessToken()),
    );
    auth.use(strategy, provider.id);
  }
  return auth;
}

async function discover(provider: OidcProviderConfig): Promise<Discovery> {
  const url = `${provider.issuer.replace(/\/$/, "")}/.well-known/openid-configuration`;
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`OIDC discovery failed for ${provider.id}: ${response.status}`);
  return (await response.json()) as Discovery;
}

// The userinfo endpoint, called with the access token we just received over the back channel,
// is the provider's own statement of who signed in.
async function fetchProfile(provider: OidcProviderConfig, discovery: Discovery, accessToken: string): Promise<SsoProfile> {
  const response = await fetch(discovery.userinfo_endpoint, {
    headers: { Authorization: `Bearer ${accessToken}` },
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`OIDC userinfo failed for ${provider.id}: ${response.status}`);
  const info = (await response.json()) as { sub?: string; email?: string; email_verified?: boolean; name?: string };
  if (!info.sub || !info.email) throw new ServiceError("Your sign-in provider did not share an e-mail address.", 400);
  return {
    provider: provider.id,
    subject: info.sub,
    email: normalizeEmail(info.email),
    emailVerified: info.email_verified === true,
    name: info.name?.trim() || info.email.split("@")[0],
  };
}

/**
 * A known identity signs in; an unknown one links to the account with its (verified) e-mail,
 * or creates a user and a tenant for a first-time visitor.
 * cross-tenant: sign-in, before any tenant is known: the account is updated by its own id.
 */
export async function signInWithSso(db: Db, profile: SsoProfile, now = new Date()): Promise<AuthedUser> {
  const [linked] = await db
    .select({ id: users.id, tenantId: users.tenantId, email: users.email, name: users.name })
    .from(oauthIdentities)
    .innerJoin(users, eq(users.id, oauthIdentities.userId))
    .where(and(eq(oauthIdentities.provider, profile.provider), eq(oauthIdentities.subject, profile.subject)));
  if (linked) return linked;

  const existing = await findUserByEmail(db, profile.email);
  if (existing) {
    // Linking on an unverified e-mail would let anyone who types a victim's address take over.
    if (!profile.emailVerified) {
      throw new ServiceError("Your sign-in provider has not verified this e-mail address.", 403);
    }
    await db.transaction(async (tx) => {
      await tx.insert(oauthIdentities).values({ provider: profile.provider, subject: profile.subject, userId: existing.id });
      if (!existing.emailVerifiedAt) {
        // An unconfirmed sign-up's password was chosen by someone who never proved this address;
        // keeping it would let them in once the provider verifies the address for its owner.
        await tx.update(users).set({ emailVerifiedAt: now, passwordHash: null }).where(eq(users.id, existing.id));
      }
      await recordAudit(
        tx,
        { tenantId: existing.tenantId, actorUserId: existing.id, action: "user.sso_linked", details: { provider: profile.provider } },
        now,
      );
    });
    return { id: existing.id, tenantId: existing.tenantId, email: existing.email, name: existing.name };
  }

  return db.transaction(async (tx) => {
    const tenant = await createTenant(tx, { name: `${profile.name}'s agency` }, now);
    const [user] = await tx
      .insert(users)
      .values({
        tenantId: tenant.id,
        email: profile.email,
        name: profile.name,
        role: "admin",
        emailVerifiedAt: profile.emailVerified ? now : null,
        createdAt: now,
      })
      .returning({ id: users.id, tenantId: users.tenantId, email: users.email, name: users.name });
    await tx.insert(oauthIdentities).values({ provider: profile.provider, subject: profile.subject, userId: user.id });
    await recordAudit(
      tx,
      { tenantId: tenant.id, actorUserId: user.id, action: "user.signed_up", details: { provider: profile.provider } },
      now,
    );
    return user;
  });
}
