// Seed connections/qqcatalyst/employee-accounts?connectionId: the same list as Applied Epic's,
// read through whichever connector the connection uses.
export { action, loader } from "./api.connections.appliedepic.employee-accounts";
