// One module per domain; later capabilities add their own file and one export line here.
export * from "./identity";
export * from "./platform";
export * from "./book";
export * from "./notifications";
export * from "./settings";
export * from "./billing";
export * from "./files";
export * from "./connections";
export * from "./renewals";
