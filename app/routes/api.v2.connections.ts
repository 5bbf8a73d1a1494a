// Seed /v2/connections: the same list as /api/connections.
export { action, loader } from "./api.connections._index";
