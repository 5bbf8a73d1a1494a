/**
 * `value` as a PostgreSQL string literal: in single quotes, with each single quote doubled. The one
 * place a value is written into SQL text, for where the driver cannot bind a parameter (the
 * argument of `EXECUTE name(…)`, a utility statement PostgreSQL will not take parameters for).
 * It relies on standard_conforming_strings, on by default since PostgreSQL 9.1 and in PGlite: a
 * backslash is then an ordinary character. A text value cannot hold NUL, so that is refused.
 */
export function sqlTextLiteral(value: string): string {
  if (value.includes("\0")) throw new Error("a PostgreSQL text value cannot contain NUL");
  return `'${value.replaceAll("'", "''")}'`;
}
