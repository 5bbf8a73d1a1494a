import { appendFileSync } from "node:fs";
import type { Logger } from "drizzle-orm/logger";

/**
 * SQL_LOG_FILE: every statement Drizzle sends, with its parameters, one JSON line each (Drizzle's
 * own `logger` option). For diagnostics and `bench/pages.js --explain`, which reads each page's
 * statements from it; synchronous appends keep the lines in order, and cost too much for production.
 */
export function sqlFileLogger(file: string | undefined): Logger | undefined {
  if (!file) return undefined;
  return {
    logQuery(query, params) {
      appendFileSync(file, `${JSON.stringify({ sql: query, params })}\n`);
    },
  };
}
