import type { SubmissionResult } from "@conform-to/react";
import { data } from "@remix-run/node";
import { asServiceError } from "~/services/platform/errors.server";

// Form actions answer through conform: `parseWithZod` → on failure `replyInvalid` → run the
// service → on a ServiceError `replyWithServiceError`. Both keep the user's input for the form to
// show again (with JavaScript or without), blanking the fields named in `hideFields` (passwords).

type Replyable = {
  reply: (options?: {
    formErrors?: string[];
    fieldErrors?: Record<string, string[]>;
    hideFields?: string[];
    resetForm?: boolean;
  }) => SubmissionResult<string[]>;
};

/** A 400 with the field messages zod produced. */
export function replyInvalid(submission: Replyable, hideFields: string[] = []) {
  return data(submission.reply({ hideFields }), { status: 400 });
}

/**
 * The one place a service's error meets a form: on its fields when it names them, else on the
 * form as a whole, with its status. A 404 means the thing the form acts on is gone or not this
 * agency's: thrown as the route's 404 page. Anything else is unexpected and rethrown (the 500 page).
 */
export function replyWithServiceError(submission: Replyable, thrown: unknown, hideFields: string[] = []) {
  const error = asServiceError(thrown);
  if (!error) throw thrown;
  if (error.status === 404) throw new Response(error.message, { status: 404 });
  const result = error.fieldErrors
    ? submission.reply({ fieldErrors: error.fieldErrors, hideFields })
    : submission.reply({ formErrors: error.message.split("\n"), hideFields });
  return data(result, { status: error.status });
}
