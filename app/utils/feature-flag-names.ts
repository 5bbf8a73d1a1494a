/** Every flag the product knows; a flag not listed here cannot be toggled. Shared with the browser. */
export const KNOWN_FLAGS = ["billing"] as const;
export type FlagName = (typeof KNOWN_FLAGS)[number];
