import { describeError, isDataException, isDatabaseUnavailable } from "~/db/errors.server";
import { log } from "~/services/platform/log.server";

/**
 * A failure the user can act on: routes show `message` (on `field` when given) with `status`.
 * Forms put it on their fields (utils/submission.server.ts), JSON routes answer it as
 * problem+json (utils/api.server.ts); both read `fieldErrors`.
 */
export class ServiceError extends Error {
  /** Messages by field name when the failure is about particular fields; null when it is about the whole request. */
  readonly fieldErrors: Record<string, string[]> | null;

  constructor(
    message: string,
    readonly status: 400 | 403 | 404 | 409 | 410 | 422 | 429 | 503 = 400,
    readonly field?: string,
    fieldErrors?: Record<string, string[]>,
  ) {
    super(message);
    this.name = "ServiceError";
    this.fieldErrors = fieldErrors ?? (field ? { [field]: [message] } : null);
  }
}

export class NotFoundError extends ServiceError {
  constructor(what = "Not found") {
    super(what, 404);
  }
}

export function isServiceError(error: unknown): error is ServiceError {
  return error instanceof ServiceError;
}

/**
 * The user-facing form of `error`: a ServiceError as is, the database out of reach as a 503 to
 * retry, a value PostgreSQL refused (a data exception: input the schemas should have cleaned) as a
 * 400, anything else null (a 500).
 */
export function asServiceError(error: unknown): ServiceError | null {
  if (isServiceError(error)) return error;
  if (isDatabaseUnavailable(error))
    return new ServiceError("Remarket cannot reach its database at the moment. Please try again in a minute.", 503);
  if (!isDataException(error)) return null;
  // Still worth a look (the schemas let it through), without the statement or the values.
  log.warn({ area: "input", err: describeError(error) }, "a value the database refused was answered with 400");
  return new ServiceError("Some of what you sent cannot be stored: check it for unusual characters and try again.", 400);
}
