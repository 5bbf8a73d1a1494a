// What bench/import.js needs from the app, bundled by esbuild at run time (the app is TypeScript).
export { closeDb, getDb, getDriver } from "~/db/client.server";
export { createTenant } from "~/services/identity/tenants.server";
export { createReadyFileConnection, storeSampleExport } from "~/services/connections/connection-fixtures.server";
export { importedCounts, runImport, startImport } from "~/services/connections/imports.server";
export { createFileConnector } from "~/services/connections/connectors/file.server";
export { defaultMapping } from "~/services/connections/connection-mapping.server";
export { transformRow } from "~/services/connections/mapping/transform";
export { getStorage } from "~/services/files/storage.server";
export { uploadKeyFor } from "~/services/connections/connections.server";
