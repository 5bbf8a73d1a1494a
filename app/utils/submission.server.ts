import type { SubmissionResult } from "@conform-to/react";
import { data } from "@remix-run/node";
import { asServiceError } from "~/services/errors.server";

type Replyable = {
  reply: (options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[]; resetForm?: boolean }) => SubmissionResult<string[]>;
};

/**
 * Turn a service's user-facing error into the form's reply (on its field when it names one),
 * keeping the user's other input. Anything else is unexpected and rethrown to the 500 page.
 */
export function replyWithServiceError(submission: Replyable, thrown: unknown, hideFields: string[] = []) {
  const error = asServiceError(thrown);
  if (!error) throw thrown;
  const result = error.field
    ? submission.reply({ fieldErrors: { [error.field]: [error.message] }, hideFields })
    : submission.reply({ formErrors: [error.message], hideFields });
  return data(result, { status: error.status });
}

/** A 400 with the field messages zod produced. */
export function replyInvalid(submission: Replyable, hideFields: string[] = []) {
  return data(submission.reply({ hideFields }), { status: 400 });
}
