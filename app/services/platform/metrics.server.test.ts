import { beforeAll, describe, expect, test } from "vitest";
import { learnRoutes, routePattern } from "./metrics.server";

// A slice of the app's route manifest, shaped as the server build gives it.
const MANIFEST = {
  root: { id: "root", path: "" },
  "routes/_app": { id: "routes/_app", parentId: "root" },
  "routes/_app._index": { id: "routes/_app._index", parentId: "routes/_app", index: true },
  "routes/_app.remarket": { id: "routes/_app.remarket", parentId: "routes/_app", path: "remarket" },
  "routes/_app.customers.$id": { id: "routes/_app.customers.$id", parentId: "routes/_app", path: "customers/:id" },
  "routes/_app.$": { id: "routes/_app.$", parentId: "routes/_app", path: "*" },
  "routes/files.$fileId.report": { id: "routes/files.$fileId.report", parentId: "root", path: "files/:fileId/report" },
  "routes/api.$": { id: "routes/api.$", parentId: "root", path: "api/*" },
};

beforeAll(() => learnRoutes(MANIFEST));

describe("routePattern (the route label of request metrics)", () => {
  test.each([
    ["/", 200, "/"],
    ["/remarket", 200, "/remarket"],
    ["/remarket/", 200, "/remarket"],
    ["/customers/3f2b6c1e-8a4d-4c2b-9e7f-1a2b3c4d5e6f", 200, "/customers/:id"],
    ["/files/3F2B6C1E/report", 200, "/files/:fileId/report"],
    ["/api/notifications/42", 200, "/api/*"],
    ["/remarket.data", 200, "/remarket"],
    ["/_root.data", 200, "/"],
    ["/build/_shared/chunk-ABC.js", 200, "/build/*"],
    ["/guessed/path/12345", 302, "/*"],
    ["/readyz", 503, "/readyz"],
    ["/anything/at/all", 404, "(unmatched)"],
  ])("%s answered %i is %s", (path, status, expected) => {
    expect(routePattern(path, status)).toBe(expected);
  });
});
