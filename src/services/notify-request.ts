// Spec 4.2: the notify-when-ready body, every field validated; a 400 names the field (`field` in the body).
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { isDrugClass, isJurisdiction, isServiceCategory, normalizeProgram, type Program, type SubjectKind } from '../domain/vocabulary.js';
import { ApiError } from '../domain/api-error.js';
import { programNotRun } from '../corpus/program-gap.js';
import { outsideProgram } from '../domain/program-scope.js';
import type { ReadModel } from '../corpus/read-model.js';

export type NotifyChannel = 'sms' | 'email';

export interface NotifyRequest {
  state: string;
  program?: Program;
  kind: SubjectKind;
  subject: string;
  channel: NotifyChannel;
  /** Normalised: E.164 for sms, lower-cased domain for email. */
  contact: string;
}

const FIELDS = new Set(['state', 'subject', 'contact', 'program', 'kind', 'channel']);

// The WHATWG HTML "valid e-mail address" production, plus a dot in the domain (no bare hosts).
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

function invalid(field: string, message: string): ApiError {
  return new ApiError(400, 'invalid_body', message, { field }, {}, field);
}

function str(b: Record<string, unknown>, field: string, required: boolean): string | undefined {
  const v = b[field];
  if (v === undefined || v === null) {
    if (required) throw invalid(field, `Missing required field '${field}'`);
    return undefined;
  }
  if (typeof v !== 'string') throw invalid(field, `'${field}' must be a string`);
  const t = v.trim();
  if (!t) {
    if (required) throw invalid(field, `Missing required field '${field}'`);
    return undefined;
  }
  return t;
}

export function normalizeEmail(raw: string): string | undefined {
  if (raw.length > 254 || !EMAIL.test(raw)) return undefined;
  const at = raw.lastIndexOf('@');
  if (at > 64) return undefined;
  return `${raw.slice(0, at)}@${raw.slice(at + 1).toLowerCase()}`;
}

/** E.164 (+ and country code), validated against libphonenumber's numbering plans. */
export function normalizePhone(raw: string): string | undefined {
  if (!/^\+[0-9 ().-]{6,24}$/.test(raw)) return undefined;
  const n = parsePhoneNumberFromString(raw);
  return n && n.isValid() ? n.number : undefined;
}

export function parseNotifyBody(body: unknown): NotifyRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('body', 'Body must be a JSON object');
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).filter((k) => !FIELDS.has(k));
  if (unknown.length) throw invalid(unknown[0]!, `Unknown field '${unknown[0]}': expected state, subject, contact, program, kind, channel`);

  const rawState = str(b, 'state', true)!;
  const state = rawState.toUpperCase();
  if (!/^[A-Z]{2}$/.test(state) || !isJurisdiction(state)) throw invalid('state', `Invalid state '${rawState.slice(0, 20)}': expected one of the 50 state USPS codes or DC`);

  const kindRaw = str(b, 'kind', false) ?? 'drug';
  if (kindRaw !== 'drug' && kindRaw !== 'service') throw invalid('kind', `Invalid kind '${kindRaw.slice(0, 20)}': expected drug or service`);
  const kind: SubjectKind = kindRaw;

  const subject = str(b, 'subject', true)!;
  if (kind === 'drug' ? !isDrugClass(subject) : !isServiceCategory(subject)) {
    throw invalid('subject', `Invalid subject '${subject.slice(0, 40)}': expected a ${kind === 'drug' ? 'drug_class_code' : 'service_category'} (kind ${kind})`);
  }

  const rawProgram = str(b, 'program', false);
  let program: Program | undefined;
  if (rawProgram !== undefined) {
    program = normalizeProgram(rawProgram);
    if (!program) throw invalid('program', `Invalid program '${rawProgram.slice(0, 40)}': expected medicaid_mco, medicaid_ffs, medicare_advantage, medicare_traditional, dual_eligible, part_d or chip`);
  }

  const rawContact = str(b, 'contact', true)!;
  const channelRaw = str(b, 'channel', false);
  if (channelRaw !== undefined && channelRaw !== 'sms' && channelRaw !== 'email') throw invalid('channel', `Invalid channel '${channelRaw.slice(0, 20)}': expected sms or email`);
  // Spec default is sms; an e-mail address with no channel is read as channel email rather than refused.
  const channel: NotifyChannel = channelRaw ?? (rawContact.includes('@') ? 'email' : 'sms');
  const contact = channel === 'email' ? normalizeEmail(rawContact) : normalizePhone(rawContact);
  if (!contact) {
    throw invalid(
      'contact',
      channel === 'email'
        ? "Invalid contact: channel email needs an e-mail address such as name@example.org"
        : 'Invalid contact: channel sms needs a phone number in E.164 form, such as +15125550123',
    );
  }
  return { state, ...(program ? { program } : {}), kind, subject, channel, contact };
}

/**
 * A gap that will never be filled is not watched: the 400 says why and where to ask instead, naming the subject
 * (outside the program's benefit) or the program (one the state does not run).
 */
export function assertWatchable(model: ReadModel, req: NotifyRequest): void {
  if (!req.program) return;
  const benefit = outsideProgram(req.program, { kind: req.kind, code: req.subject });
  const outside = benefit ?? programNotRun(model, req.state, req.program);
  if (!outside) return;
  const field = benefit ? 'subject' : 'program';
  throw invalid(field, `Invalid ${field} for ${req.state} ${req.program} ${req.kind} '${req.subject}': ${outside.reason} Ask program ${outside.try_programs.join(' or ')} instead.`);
}

/** A masked form for responses (never the clear contact). */
export function maskContact(channel: NotifyChannel, contact: string): string {
  if (channel === 'email') {
    const at = contact.lastIndexOf('@');
    return `${contact[0]}***${contact.slice(at)}`;
  }
  return `${contact.slice(0, 2)}${'*'.repeat(Math.max(0, contact.length - 4))}${contact.slice(-2)}`;
}
