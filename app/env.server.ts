import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { isLoopbackHost } from "~/utils/loopback.server";

const bool = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => (v === undefined || v === "" ? fallback : v === "true" || v === "1"));

const optionalInt = z.coerce.number().int().positive().optional();

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  APP_URL: z.string().url().optional(),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  PGLITE_DIR: z.string().optional(),
  /** The embedded database's read cache (app/db/embedded-cache); `false` runs PGlite through Drizzle alone. */
  EMBEDDED_READ_CACHE: bool(true),
  /** Diagnostics: append every SQL statement and its parameters to this file (app/db/sql-log.server.ts). */
  SQL_LOG_FILE: z.string().optional(),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-f]{64}$/i, "must be 64 hex characters (32 bytes)")
    .optional(),
  SESSION_IDLE_MINUTES: z.coerce.number().positive().default(30),
  SESSION_MAX_AGE_HOURS: z.coerce.number().positive().default(12),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default("Remarket <no-reply@remarket.local>"),
  DEV_OUTBOX: z.enum(["true", "false", "1", "0", ""]).optional(),
  PASSWORD_MIN_LENGTH: z.coerce.number().int().min(1).default(6),
  PASSWORD_MAX_LENGTH: optionalInt,
  PASSWORD_REQUIRE_LOWERCASE: bool(false),
  PASSWORD_REQUIRE_UPPERCASE: bool(false),
  PASSWORD_REQUIRE_DIGIT: bool(false),
  PASSWORD_REQUIRE_SYMBOL: bool(false),
  // Sign-in and code entry (issue 12 §4): hard limits per (account, address) and per address; across
  // addresses an account is only slowed down, so nobody can lock its owner out.
  RATE_LIMIT_LOGIN_PER_EMAIL_IP: z.coerce.number().int().positive().default(5),
  RATE_LIMIT_LOGIN_PER_IP: z.coerce.number().int().positive().default(50),
  RATE_LIMIT_CODE_PER_EMAIL_IP: z.coerce.number().int().positive().default(10),
  RATE_LIMIT_CODE_PER_IP: z.coerce.number().int().positive().default(50),
  LOGIN_SLOWDOWN_AFTER: z.coerce.number().int().positive().default(5),
  LOGIN_SLOWDOWN_MAX_MS: z.coerce.number().int().min(0).default(10_000),
  LOGIN_ALERT_AFTER: z.coerce.number().int().positive().default(10),
  STAFF_EMAILS: z.string().default(""),
  FEATURE_FLAGS: z.string().default("billing"),
  OIDC_PROVIDERS: z.string().default(""),
  TRUST_PROXY: bool(false),
  ACCESS_LOG: bool(true),
  RUN_WORKER: bool(true),
  DEMO_TTL_HOURS: z.coerce.number().positive().default(24),
  ENABLE_TEST_FIXTURES: bool(false),
  // Billing: without STRIPE_SECRET_KEY billing runs locally (trial, plan and quota in the database).
  TRIAL_DAYS: z.coerce.number().int().min(0).default(14),
  TRIAL_ANNUAL_QUOTA: z.coerce.number().int().min(0).default(25),
  /** Seed grace-period-status: days a past-due subscription keeps working. */
  GRACE_PERIOD_DAYS: z.coerce.number().int().min(0).default(7),
  TRIAL_REMINDER_DAYS: z.coerce.number().int().min(1).default(3),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** Only for tests and proxies: where the Stripe SDK sends its requests. */
  STRIPE_API_HOST: z.string().optional(),
  STRIPE_API_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  STRIPE_API_PROTOCOL: z.enum(["http", "https"]).optional(),
  /** Optional Stripe price ids; without them Checkout prices the plan inline. */
  STRIPE_PRICE_STARTER: z.string().optional(),
  STRIPE_PRICE_GROWTH: z.string().optional(),
  STRIPE_PRICE_AGENCY: z.string().optional(),
  // HTTP server (server/index.js, app/utils/http-limits.server.ts): body caps and time-outs.
  REQUEST_BODY_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  HEADERS_TIMEOUT_MS: z.coerce.number().int().positive().default(20_000),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  UPLOAD_MIN_BYTES_PER_SECOND: z.coerce.number().int().positive().default(50_000),
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().positive().default(65_000),
  // Files: the largest upload (100 MB), how long a public link lives, processing limits.
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(100 * 1024 * 1024),
  PUBLIC_LINK_TTL_MINUTES: z.coerce.number().positive().default(15),
  EDA_MAX_COLUMNS: z.coerce.number().int().positive().default(2_000),
  EDA_MAX_ROW_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(8 * 1024 * 1024),
  XLSX_MAX_UNCOMPRESSED_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(512 * 1024 * 1024),
  // Jobs: a lease a crashed worker's job is reclaimed after; renewed while the job runs.
  JOB_LEASE_MS: z.coerce.number().int().positive().default(60_000),
  JOB_CONCURRENCY: z.coerce.number().int().positive().default(2),
  // S3-compatible object storage instead of DATA_DIR/uploads when S3_BUCKET is set.
  S3_BUCKET: z.string().optional(),
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool(false),
  // bench/ssr.js only: turns on /bench/hello, the hello-world baseline.
  BENCH_ROUTES: bool(false),
});

export type Env = z.infer<typeof EnvSchema> & {
  appUrl: string;
  sessionSecret: string;
  encryptionKey: Buffer;
  pgliteDir: string;
  devOutbox: boolean;
  staffEmails: string[];
  oidcProviders: OidcProviderConfig[];
  secureCookies: boolean;
};

export type OidcProviderConfig = {
  id: string;
  label: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
};

let cached: Env | undefined;

/** Validated environment, read once; throws one clear line per bad variable. */
export function getEnv(): Env {
  if (cached) return cached;
  const parsed = EnvSchema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  const appUrl = (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, "");
  // The outbox holds every tenant's sign-up and reset codes: it exists only while APP_URL names
  // this machine, whatever DEV_OUTBOX says (decision record 003); requests are checked too.
  const outboxWanted =
    env.DEV_OUTBOX === undefined || env.DEV_OUTBOX === "" ? !env.SMTP_URL : env.DEV_OUTBOX === "true" || env.DEV_OUTBOX === "1";
  const devOutbox = outboxWanted && isLoopbackHost(new URL(appUrl).hostname);
  cached = {
    ...env,
    DATA_DIR: dataDir,
    appUrl,
    sessionSecret: env.SESSION_SECRET ?? persistedSecret(dataDir, "session-secret", 48),
    encryptionKey: Buffer.from(env.ENCRYPTION_KEY ?? persistedSecret(dataDir, "encryption-key", 32), "hex"),
    pgliteDir: env.PGLITE_DIR ?? path.join(dataDir, "db"),
    devOutbox,
    staffEmails: env.STAFF_EMAILS.split(",")
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
    oidcProviders: readOidcProviders(env.OIDC_PROVIDERS),
    // Secure cookies and HSTS follow the public URL: a laptop on http://localhost still works.
    secureCookies: appUrl.startsWith("https://"),
  };
  return cached;
}

/** Test hook: forget the cached environment after changing process.env. */
export function resetEnvForTests() {
  cached = undefined;
}

// A laptop needs no configuration: secrets are generated once and kept beside the data.
function persistedSecret(dataDir: string, name: string, bytes: number) {
  const file = path.join(dataDir, name);
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const value = randomBytes(bytes).toString("hex");
    try {
      fs.writeFileSync(file, value, { mode: 0o600, flag: "wx" });
      return value;
    } catch {
      // Another process wrote it first: use theirs.
      return fs.readFileSync(file, "utf8").trim();
    }
  }
}

function readOidcProviders(list: string): OidcProviderConfig[] {
  const ids = list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return ids.map((id) => {
    const key = id.toUpperCase().replace(/[^A-Z0-9]/g, "_");
    const read = (suffix: string, required = true) => {
      const value = process.env[`OIDC_${key}_${suffix}`];
      if (required && !value) throw new Error(`Invalid environment:\n  OIDC_${key}_${suffix}: required`);
      return value ?? "";
    };
    return {
      id,
      label: read("LABEL", false) || id,
      issuer: read("ISSUER"),
      clientId: read("CLIENT_ID"),
      clientSecret: read("CLIENT_SECRET", false),
    };
  });
}
