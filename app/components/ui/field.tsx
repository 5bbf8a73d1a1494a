import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from "react";
import { cn } from "~/utils/cn";

const control =
  "block w-full rounded-md border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-brand-600 aria-[invalid]:ring-red-500 dark:bg-slate-900 dark:text-slate-100 dark:ring-slate-600";

type FieldShell = { label: ReactNode; errors?: string[] | null; hint?: ReactNode; className?: string };

export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  if (!errors?.length) return null;
  return (
    <ul id={id} className="mt-1 space-y-0.5 text-sm text-red-600 dark:text-red-400">
      {errors.map((e) => (
        <li key={e}>{e}</li>
      ))}
    </ul>
  );
}

/** A labelled text input with its error messages (seed §2 text input). */
export function Field({ label, errors, hint, className, ...input }: FieldShell & InputHTMLAttributes<HTMLInputElement> & { id: string }) {
  const errorId = errors?.length ? `${input.id}-error` : undefined;
  return (
    <div className={className}>
      <label htmlFor={input.id} className="block text-sm font-medium text-slate-700 dark:text-slate-200">
        {label}
      </label>
      <input {...input} className={cn(control, "mt-1")} aria-invalid={errorId ? true : undefined} aria-describedby={errorId} />
      {hint ? <div className="mt-1 text-xs text-slate-500">{hint}</div> : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

export type Option = { value: string; label: string };

/** A labelled select with an optional default ("choose…") option (seed §2 dropdown select). */
export function SelectField({
  label,
  errors,
  hint,
  className,
  options,
  defaultOption,
  ...select
}: FieldShell & SelectHTMLAttributes<HTMLSelectElement> & { id: string; options: Option[]; defaultOption?: string }) {
  const errorId = errors?.length ? `${select.id}-error` : undefined;
  return (
    <div className={className}>
      <label htmlFor={select.id} className="block text-sm font-medium text-slate-700 dark:text-slate-200">
        {label}
      </label>
      <select {...select} className={cn(control, "mt-1")} aria-invalid={errorId ? true : undefined} aria-describedby={errorId}>
        {defaultOption !== undefined ? <option value="">{defaultOption}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {hint ? <div className="mt-1 text-xs text-slate-500">{hint}</div> : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}
