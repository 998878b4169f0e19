// The operator's PAS requests read once, for the admin routes and the CLI alike: a decision body and a report year.
import { badRequest } from '../domain/api-error.js';

const REASON = /^[A-Za-z0-9]{1,6}$/;

/** Body of a decision: {"decision": "approve"|"deny", "item"?: n, "reason"?: X12 886 code, "note"?: text}. */
export function parseDecision(body: unknown): { decision: 'approve' | 'deny'; item?: number; reasonCode?: string; note?: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('Body must be a JSON object', 'invalid_body');
  const b = body as Record<string, unknown>;
  if (b.decision !== 'approve' && b.decision !== 'deny') throw badRequest("'decision' must be 'approve' or 'deny'", 'invalid_body');
  if (b.item !== undefined && (!Number.isInteger(b.item) || (b.item as number) < 1)) throw badRequest("'item' must be a positive integer (the Claim item sequence)", 'invalid_body');
  if (b.reason !== undefined && (typeof b.reason !== 'string' || !REASON.test(b.reason))) throw badRequest("'reason' must be an X12 review decision reason code (1-6 letters or digits)", 'invalid_body');
  if (b.decision === 'deny' && b.reason === undefined) throw badRequest("A denial needs 'reason' (the X12 review decision reason code): CMS-0057-F requires a specific reason", 'invalid_body');
  if (b.note !== undefined && (typeof b.note !== 'string' || b.note.length > 1000)) throw badRequest("'note' must be a string of at most 1000 characters", 'invalid_body');
  return {
    decision: b.decision,
    ...(b.item !== undefined ? { item: b.item as number } : {}),
    ...(typeof b.reason === 'string' ? { reasonCode: b.reason } : {}),
    ...(typeof b.note === 'string' ? { note: b.note } : {}),
  };
}

export function parseYear(raw: string | null, now: Date): number {
  if (raw === null) return now.getUTCFullYear(); // an empty ?year= is a 400, like every other empty parameter
  if (!/^\d{4}$/.test(raw) || Number(raw) < 2000 || Number(raw) > 2100) throw badRequest(`Invalid year '${raw.slice(0, 10)}': expected a four-digit year`, 'invalid_parameter', 'year');
  return Number(raw);
}
