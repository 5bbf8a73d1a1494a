// The demo agency's sample data: each capability registers its seeder (registerDemoSeeder) in a
// module imported here, so "Try the demo" always gets every capability's data.
import "../billing/billing-demo.server";
import "../connections/connections-demo.server";
import "../renewals/book-demo.server";
import "../files/files-demo.server";

export { createDemoTenant } from "./demo.server";
