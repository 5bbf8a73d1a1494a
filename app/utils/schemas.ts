import { z } from "zod";

// Text people send (query strings, forms, JSON) passes one of these before it reaches a service:
// PostgreSQL refuses NUL in text and jsonb (a 500 with the statement in the log, issue 12 §3), and
// the other C0 controls only hide characters from whoever reads the value later.

const LINE_BREAKS_AND_TABS = /[\t\n\r]/g;
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\u0000-\u001f\u007f]/;

/** Remove C0 control characters and DEL; `lines` keeps tabs and line breaks, otherwise they become spaces. */
export function withoutControls(value: string, { lines = false } = {}) {
  if (!ANY_CONTROL.test(value)) return value;
  const kept = value.replace(CONTROLS, "");
  return lines ? kept : kept.replace(LINE_BREAKS_AND_TABS, " ");
}

/** One line of text (a name, a code, a search): control characters removed, then trimmed. */
export const singleLineText = (params?: Parameters<typeof z.string>[0]) =>
  z
    .string(params)
    .overwrite((value) => withoutControls(value))
    .trim();

/** Text over several lines (notes, reasons): tabs and line breaks kept, other controls removed, trimmed. */
export const multiLineText = (params?: Parameters<typeof z.string>[0]) =>
  z
    .string(params)
    .overwrite((value) => withoutControls(value, { lines: true }))
    .trim();

/** Any JSON value with every string and key cleaned as multi-line text (jsonb refuses \u0000). */
export function jsonWithoutControls(value: unknown): unknown {
  if (typeof value === "string") return withoutControls(value, { lines: true });
  if (Array.isArray(value)) return value.map(jsonWithoutControls);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [withoutControls(key, { lines: true }), jsonWithoutControls(item)]),
    );
  }
  return value;
}

/** A JSON value from a client (a wizard draft), cleaned of control characters. */
export const cleanJson = () => z.unknown().transform(jsonWithoutControls);

/** A list filter read from the query string: one line of at most 120 characters; empty or unreadable is no filter. */
export const queryFilterText = () =>
  singleLineText()
    .max(120)
    .optional()
    .catch(undefined)
    .transform((v) => v || undefined);
