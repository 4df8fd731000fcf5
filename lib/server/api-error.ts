// The API's one error shape as an exception: thrown wherever a request fails for a reason a person
// can act on (adapters' writers too), turned into `{"error":{"code","message"}}` by errors.ts.
// Apart from errors.ts so that throwing one pulls in nothing of the journal.

export type ApiErrorStatus = 400 | 403 | 404 | 409 | 413 | 500 | 503;

/** A failure with a place to land: the API's one error shape. */
export class ApiError extends Error {
  constructor(
    readonly status: ApiErrorStatus,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}
