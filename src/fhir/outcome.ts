// An expected failure of a FHIR operation as a value. The route turns it into an ApiError, which the one error
// renderer writes as an OperationOutcome (issue.expression = `expression`).
export interface Failure {
  status: 400 | 404 | 422;
  /** Machine-readable code; a subset of the HTTP layer's error codes. */
  code: 'invalid_body' | 'invalid_parameter' | 'missing_parameter' | 'scope_gap' | 'not_found';
  message: string;
  /** FHIRPath of the offending element. */
  expression?: string;
  /** The states/programs the request concerned, when known: the caller's key must cover them even for a 404. */
  scope?: { states: string[]; programs: string[] };
}

export const isFailure = (v: unknown): v is Failure =>
  typeof v === 'object' && v !== null && typeof (v as Failure).status === 'number' && typeof (v as Failure).message === 'string';
