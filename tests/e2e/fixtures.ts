import { test as base, expect } from "@playwright/test";

/**
 * Every spec's `test`: fails a test whose page threw an uncaught error. A route module that breaks
 * in the browser still "works" to a test, because Remix falls back to a full page load, so this is
 * the only place such a bug shows (it hid a billing page that could not load its script).
 */
export const test = base.extend<{ failOnPageErrors: void }>({
  failOnPageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(`${error.name}: ${error.message}`));
      await use();
      expect(errors, "uncaught errors in the page").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
export type { Page } from "@playwright/test";
