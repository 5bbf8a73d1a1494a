import { Form, useRouteLoaderData, type FormProps } from "@remix-run/react";
import { forwardRef, useState } from "react";
import { InlineRetryNotice } from "~/components/shell";
import type { loader as rootLoader } from "~/root";

/** Name of the hidden one-time token field (kept in sync with services/platform/idempotency.server.ts). */
export const FORM_TOKEN_FIELD = "_formToken";

/**
 * The one-time token of this page render. Every mutating form carries it, so a double click or
 * a retry after a dropped response is answered with the first outcome instead of applying twice.
 */
export function FormToken() {
  const data = useRouteLoaderData<typeof rootLoader>("root");
  if (!data?.formToken) return null;
  return <input type="hidden" name={FORM_TOKEN_FIELD} value={data.formToken} />;
}

/**
 * A POST form that works without JavaScript and carries the one-time token. With JavaScript, a
 * submission that gets no answer shows the connection notice at the top of the form, with a
 * "Try again" that sends the same submission (same token) again.
 */
export const PostForm = forwardRef<HTMLFormElement, Omit<FormProps, "method">>(function PostForm({ children, ...props }, ref) {
  return (
    <Form method="post" ref={ref} {...props}>
      <FormToken />
      <InlineRetryNotice />
      {children}
    </Form>
  );
});

/**
 * The action's conform result when it answers this form, else undefined: on a page with a form
 * per row, `match` holds the hidden fields that tell the rows apart (the submitted values come
 * back in the result's `initialValue`).
 */
export function resultFor<R extends { initialValue?: Record<string, unknown> | null }>(
  result: R | undefined,
  match: Record<string, string>,
) {
  const submitted = result?.initialValue;
  if (!submitted) return undefined;
  return Object.entries(match).every(([name, value]) => submitted[name] === value) ? result : undefined;
}

/**
 * The id to give conform's `useForm` on a page whose action redirects back to the page on
 * success. conform keeps a refused result's messages until another result comes, and a success
 * brings none (the action data goes away): this id changes then, so conform starts the form
 * afresh, with no stale messages and its inputs from the new loader data. `result` is the page's
 * whole action (or loader) result, so a success of any form on the page resets them all.
 */
export function useFormId(base: string, result: unknown) {
  const [seen, setSeen] = useState({ result, generation: 0 });
  if (result !== seen.result)
    setSeen({ result, generation: seen.result != null && result == null ? seen.generation + 1 : seen.generation });
  return seen.generation === 0 ? base : `${base}-${seen.generation}`;
}
