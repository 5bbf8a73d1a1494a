// What bench/import.js needs from the app, bundled by esbuild at run time (the app is TypeScript).
export { closeDb, getDb, getDriver } from "~/db/client.server";
export { createTenant } from "~/services/tenants.server";
export { createReadyFileConnection, storeSampleExport } from "~/services/connection-fixtures.server";
export { importedCounts, runImport, startImport } from "~/services/imports.server";
export { createFileConnector } from "~/services/connectors/file.server";
export { defaultMapping } from "~/services/connection-mapping.server";
export { transformRow } from "~/services/mapping/transform";
export { getStorage } from "~/services/storage.server";
export { uploadKeyFor } from "~/services/connections.server";
