// The demo agency's sample data: each capability registers its seeder (registerDemoSeeder) in a
// module imported here, so "Try the demo" always gets every capability's data.
import "./billing-demo.server";
import "./connections-demo.server";
import "./book-demo.server";
import "./files-demo.server";

export { createDemoTenant } from "./demo.server";
