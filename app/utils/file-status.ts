/** Statuses still moving: pages showing them refresh themselves (with JavaScript). Shared by server and browser. */
export const ACTIVE_STATUSES: readonly string[] = ["Uploaded", "Progress", "Processed"];
