import { z } from "zod";

// One reading of money typed by people or written by exports: "6,480", "$6,480.00", "6480",
// "USD 6480", "(12.00)" as a negative. Forms and imports share it, so whatever one accepts the
// other does too.

export type ParsedMoney = { ok: true; value: number | null } | { ok: false };

/** Blank → null; an amount → its value in cents precision; anything else (N/A, "abc") → not ok. */
export function parseMoneyText(value: string | null | undefined): ParsedMoney {
  let text = (value ?? "").trim();
  if (text === "") return { ok: true, value: null };
  let negative = false;
  if (/^\(.*\)$/.test(text)) {
    negative = true;
    text = text.slice(1, -1).trim();
  }
  text = text.replace(/^-\s*/, () => {
    negative = !negative;
    return "";
  });
  text = text
    .replace(/^(USD|US\$|\$)\s*/i, "")
    .replace(/\s*(USD)$/i, "")
    .replace(/,(?=\d{3}(\D|$))/g, "");
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(text)) return { ok: false };
  const num = Number(text);
  if (!Number.isFinite(num)) return { ok: false };
  return { ok: true, value: Math.round((negative ? -num : num) * 100) / 100 };
}

type Amount<Optional extends boolean> = Optional extends true ? number | null : number;

const shown = (raw: string) => `'${raw.trim().slice(0, 40)}'`;

/**
 * A money form field: accepts the spellings above and answers in the user's words when it
 * cannot ("Premium is not a number: 'N/A'"). `optional` lets a blank field through as null.
 */
export function moneyField<Optional extends boolean = false>(
  label: string,
  { max = 10_000_000, optional, missing }: { max?: number; optional?: Optional; missing?: string } = {},
) {
  const required = missing ?? `Enter the ${label.toLowerCase()}.`;
  // JSON clients send numbers; forms send text. Both read the same way.
  const input = z.union([z.string(), z.number()], { error: required });
  return (optional ? input.optional() : (input as z.ZodType<string | number | undefined>)).transform((value, ctx): Amount<Optional> => {
    const raw = typeof value === "number" ? String(value) : value;
    const parsed = parseMoneyText(raw);
    if (!parsed.ok) {
      ctx.addIssue({ code: "custom", message: `${label} is not a number: ${shown(raw ?? "")}` });
      return z.NEVER;
    }
    if (parsed.value === null) {
      if (optional) return null as Amount<Optional>;
      ctx.addIssue({ code: "custom", message: required });
      return z.NEVER;
    }
    if (parsed.value <= 0) {
      ctx.addIssue({ code: "custom", message: `${label} must be more than $0: ${shown(raw ?? "")}` });
      return z.NEVER;
    }
    if (parsed.value > max) {
      ctx.addIssue({ code: "custom", message: `${label} must be under $${max.toLocaleString("en-US")}: ${shown(raw ?? "")}` });
      return z.NEVER;
    }
    return parsed.value as Amount<Optional>;
  });
}
