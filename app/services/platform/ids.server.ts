import { NotFoundError } from "./errors.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id from a URL or form that is not even a UUID cannot exist: 404, not a database error. */
export function requireUuid(id: string, what = "Not found") {
  if (!UUID.test(id)) throw new NotFoundError(what);
  return id;
}
