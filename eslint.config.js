import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import remarket from "./eslint-rules/tenant-scope.js";

export default tseslint.config(
  { ignores: ["build", "public/build", "node_modules", "data", "test-results", "playwright-report", "bench/out", ".cache"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": "off",
    },
  },
  {
    // A query on a tenant-owned table that forgets the tenant does not pass lint (eslint-rules/tenant-scope.js).
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/**/*.test.{ts,tsx}", "app/db/schema/**"],
    plugins: { remarket },
    rules: { "remarket/tenant-scope": "error" },
  },
  {
    // Issue 14: pages format numbers, money, dates and phone numbers through app/utils/format.ts,
    // so every page reads the same ("23 Nov 2026 | 04:01", "−$12", "12.3%", "(708) 555-1018").
    files: ["app/routes/**/*.{ts,tsx}", "app/components/**/*.{ts,tsx}"],
    ignores: ["app/**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "date-fns",
              importNames: ["format", "formatDate", "formatISO9075", "formatRelative", "formatDistance", "lightFormat", "intlFormat"],
              message: "Format dates with formatDate / formatDateTime / formatMonth from ~/utils/format.",
            },
            { name: "libphonenumber-js", message: "Format phone numbers with formatPhone from ~/utils/format (in a loader)." },
          ],
        },
      ],
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.property.name=/^toLocale(Date|Time)?String$/]",
          message: "Format with ~/utils/format (formatNumber, formatMoney, formatDate, …), not toLocaleString.",
        },
        {
          selector: "NewExpression[callee.object.name='Intl']",
          message: "Format with ~/utils/format, which keeps the formatters, not a new Intl formatter.",
        },
        {
          selector: "CallExpression[callee.property.name='toFixed']",
          message: "Format with formatNumber / formatPercent / formatMoney from ~/utils/format, not toFixed.",
        },
      ],
    },
  },
);
