/** A failure the user can act on: routes show `message` (on `field` when given) with `status`. */
export class ServiceError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 403 | 404 | 409 | 422 | 429 = 400,
    readonly field?: string,
  ) {
    super(message);
    this.name = "ServiceError";
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
