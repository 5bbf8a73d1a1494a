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
);
