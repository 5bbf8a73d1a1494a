import type { SubmissionResult } from "@conform-to/react";

// Forms that validate on the server only: the action parses with conform (`parseWithZod`) and
// answers a refusal with `submission.reply()`, and the page reads that reply as it comes: ids,
// messages and the typed values, with the same props conform's helpers give (`aria-invalid`,
// `aria-describedby`, `form`). conform's `useForm` tracks every field read so the browser can
// re-render only what changed; on the server that bookkeeping grows with each read, and on the
// carriers page (two forms per carrier) and the prediction step (seven fields per line) it cost
// more CPU than rendering the page (bench/pages.js --profile). A form that validates in the
// browser as well keeps `useForm`.

type Reply = SubmissionResult<string[]> | null | undefined;

export type ServerField = {
  id: string;
  name: string;
  formId: string;
  errorId: string;
  errors: string[] | undefined;
  /** The refused submission's value, else the page's starting value. */
  initialValue: unknown;
  /** The fields under this one (`name.child`), for a nested object. */
  getFieldset(): Record<string, ServerField>;
};

export type ServerFormMeta = {
  id: string;
  errorId: string;
  /** "error" after a refused submission. */
  status: "error" | "success" | undefined;
  /** The refused submission's values (nested by field name), else undefined. */
  value: Record<string, unknown> | undefined;
  errors: string[] | undefined;
  allErrors: Record<string, string[]>;
};

/** The form and its fields, by name (nested objects through `getFieldset()`). */
export function useServerForm(options: { id: string; lastResult?: Reply; defaultValue?: Record<string, unknown> }) {
  const { id, lastResult } = options;
  const refused = lastResult?.status === "error" ? (lastResult.initialValue ?? {}) : undefined;
  const values = refused ?? options.defaultValue ?? {};
  const errors = Object.fromEntries(Object.entries(lastResult?.error ?? {}).filter((e): e is [string, string[]] => !!e[1]?.length));
  const form: ServerFormMeta = {
    id,
    errorId: `${id}-error`,
    status: lastResult?.status,
    value: refused,
    errors: errors[""],
    allErrors: errors,
  };
  return [form, fieldsetOf(id, errors, values, "")] as const;
}

function fieldsetOf(formId: string, errors: Record<string, string[]>, values: unknown, prefix: string): Record<string, ServerField> {
  const field = (key: string): ServerField => {
    const name = prefix ? `${prefix}.${key}` : key;
    const value = values && typeof values === "object" ? (values as Record<string, unknown>)[key] : undefined;
    return {
      id: `${formId}-${name}`,
      name,
      formId,
      errorId: `${formId}-${name}-error`,
      errors: errors[name],
      initialValue: serialize(value),
      getFieldset: () => fieldsetOf(formId, errors, value, name),
    };
  };
  // Fields are made as they are read: a form names only the fields it renders.
  return new Proxy({} as Record<string, ServerField>, { get: (_, key) => (typeof key === "string" ? field(key) : undefined) });
}

/** A starting value as a form field holds it (what conform's `defaultValue` does): text, "on" for true. */
function serialize(value: unknown): unknown {
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (typeof value === "boolean") return value ? "on" : undefined;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(serialize);
  return value;
}

const aria = (meta: { errors: string[] | undefined; errorId: string }, control: boolean) =>
  meta.errors ? { ...(control ? { "aria-invalid": true as const } : {}), "aria-describedby": meta.errorId } : {};

export function getFormProps(form: ServerFormMeta) {
  return { id: form.id, noValidate: true, ...aria(form, false) };
}

export function getInputProps(field: ServerField, options: { type: string; value?: string }) {
  const base = { id: field.id, name: field.name, form: field.formId, type: options.type, ...aria(field, true) };
  if (options.type === "checkbox" || options.type === "radio") {
    const value = options.value ?? "on";
    const initial = field.initialValue;
    return { ...base, value, defaultChecked: Array.isArray(initial) ? initial.includes(value) : initial === value };
  }
  return typeof field.initialValue === "string" ? { ...base, defaultValue: field.initialValue } : base;
}

export function getSelectProps(field: ServerField) {
  const initial = field.initialValue;
  const base = { id: field.id, name: field.name, form: field.formId, ...aria(field, true) };
  return initial === undefined || initial === null ? base : { ...base, defaultValue: String(initial) };
}

export function getTextareaProps(field: ServerField) {
  const base = { id: field.id, name: field.name, form: field.formId, ...aria(field, true) };
  return typeof field.initialValue === "string" ? { ...base, defaultValue: field.initialValue } : base;
}
