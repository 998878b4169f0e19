// The one error type of the HTTP layer. `code` is the additive machine-readable code (spec 7 leaves it open).
export type ErrorCode =
  | 'missing_parameter'
  | 'invalid_parameter'
  | 'conflicting_parameters'
  | 'malformed_json'
  | 'invalid_body'
  | 'unauthorized'
  | 'forbidden'
  | 'scope_gap'
  | 'not_found'
  | 'conflict'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'service_unavailable'
  | 'internal_error';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** Extra body fields (e.g. the scope_gap marker, rate-limit fields). */
    readonly extra: Readonly<Record<string, unknown>> = {},
    readonly headers: Readonly<Record<string, string>> = {},
    /** FHIRPath of the offending element, for OperationOutcome.issue.expression. */
    readonly expression?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string, code: ErrorCode = 'invalid_parameter', expression?: string): ApiError =>
  new ApiError(400, code, message, {}, {}, expression);
export const unauthorized = (message: string): ApiError => new ApiError(401, 'unauthorized', message);
export const forbidden = (message: string, extra: Record<string, unknown> = {}): ApiError => new ApiError(403, 'forbidden', message, extra);
export const notFound = (message: string, extra: Record<string, unknown> = {}): ApiError => new ApiError(404, 'not_found', message, extra);

/**
 * A request body that cannot be processed: one entry per offending element (names, never values), and the warnings
 * about what would have been accepted (an OperationOutcome lists them after the errors).
 */
export class BodyShapeError extends ApiError {
  constructor(
    readonly issues: readonly { message: string; expression: string }[],
    readonly warnings: readonly { message: string; expression: string }[] = [],
  ) {
    super(
      400,
      'invalid_body',
      `The request body is not valid: ${issues[0]?.message ?? 'invalid'} at ${issues[0]?.expression ?? 'body'}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''}`,
      { issues },
      {},
      issues[0]?.expression,
    );
    this.name = 'BodyShapeError';
  }
}
