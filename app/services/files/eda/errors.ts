/**
 * A file that cannot be profiled however often we retry (ragged rows, bad quoting, a zip
 * bomb…): processing ends Failed with this message as the reason.
 */
export class UnreadableFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnreadableFileError";
  }
}

/** Text that is not valid in the encoding we assumed; "auto" retries as Windows-1252. */
export class EncodingMismatchError extends UnreadableFileError {}
