import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import { connections } from "~/db/schema";
import { getEnv } from "~/env.server";
import { notify } from "~/services/platform/notifications.server";
import { getStorage } from "~/services/files/storage.server";
import { getIntegration } from "~/utils/integrations";
import { unseal } from "~/utils/sealed.server";
import type { Sleep } from "./api-client.server";
import { createFileConnector, fileFormatFor } from "./file.server";
import { createSalesforceConnector, type SalesforceCredentials } from "./salesforce.server";
import { ConnectorError, type Connector } from "./types";
import { log } from "~/services/platform/log.server";

export type ConnectionSource = {
  id: string;
  tenantId: string;
  integrationId: string;
  name: string;
  credentialsSealed: string | null;
  settings: Record<string, string>;
  fileKey: string | null;
  fileName: string | null;
};

export type ConnectorOptions = { sleep?: Sleep; timeoutMs?: number; fetch?: typeof fetch };

let testOptions: ConnectorOptions = {};
/** Test hook: make API connectors skip real waits. */
export function setConnectorOptionsForTests(options: ConnectorOptions) {
  testOptions = options;
}

/** The connector for a connection: its uploaded file, or its vendor API with its credentials. */
export function connectorFor(db: DbOrTx, connection: ConnectionSource, options: ConnectorOptions = {}): Connector {
  const integration = getIntegration(connection.integrationId);
  if (!integration) throw new ConnectorError(`Unknown integration ${connection.integrationId}`);
  if (integration.source === "file") {
    if (!connection.fileKey || !connection.fileName) throw new ConnectorError("No export file has been uploaded yet.");
    const format = fileFormatFor(connection.fileName);
    if (!format) throw new ConnectorError("Only CSV and XLSX files can be imported.");
    const key = connection.fileKey;
    return createFileConnector({
      open: () => getStorage().read(key),
      localPath: () => getStorage().localPath(key),
      format,
      fileName: connection.fileName,
      contentKey: key,
    });
  }
  const secrets = connection.credentialsSealed ? unseal<Record<string, string>>(connection.credentialsSealed, connection.id) : {};
  const credentials = { ...connection.settings, ...secrets } as SalesforceCredentials;
  return createSalesforceConnector(credentials, {
    ...testOptions,
    ...options,
    onInvalidCredentials: (reason) => markInvalidCredentials(db, connection, reason),
  });
}

/**
 * Seed §8 "second 401 or failed refresh": the connection goes to Error with the
 * invalid-credentials flag (seed carriers/tenant/invalid-creds style) and everyone is told.
 */
export async function markInvalidCredentials(db: DbOrTx, connection: Pick<ConnectionSource, "id" | "tenantId" | "name">, reason: string) {
  await db
    .update(connections)
    .set({ status: "error", invalidCredentials: true, lastError: "invalid credentials", updatedAt: new Date() })
    .where(and(eq(connections.id, connection.id), eq(connections.tenantId, connection.tenantId)));
  log.warn({ area: "connections", connectionId: connection.id, reason }, "the source refused the saved credentials");
  await notify(db, {
    tenantId: connection.tenantId,
    kind: "connection.invalid_credentials",
    title: `${connection.name}: invalid credentials`,
    message: "The system refused the saved credentials. Open the connection and enter them again.",
    link: `/connect-database/${connection.id}`,
  });
}

/** Login URLs the server may call: https, or a local stand-in outside production. */
export function isAllowedApiUrl(url: string) {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === "https:") return true;
    return getEnv().NODE_ENV !== "production" && parsed.protocol === "http:" && ["localhost", "127.0.0.1"].includes(parsed.hostname);
  } catch {
    return false;
  }
}
