// The only module that reads process.env. Validated once; every problem listed; frozen and passed down.
import { accessSync, constants as fsConstants } from 'node:fs';
import { resolve } from 'node:path';
import { parseLimits, type LimitGroup } from './domain/limits.js';
import { parseTrustProxy } from './domain/client-address.js';
import { parseOutboundDeny } from './domain/outbound.js';
import type { AddressList } from './domain/address-list.js';

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly mongodbUri: string | undefined;
  readonly mongodbDb: string;
  readonly dataDir: string;
  readonly fixturesDir: string;
  readonly loadSample: boolean;
  /**
   * Serve only rules whose status is verified (the spec's default: no verified rule is a scope_gap 404).
   * SERVE_SAMPLE_RULES=true opts in to serving sample rules too (demos); SERVE_VERIFIED_ONLY is its older inverse.
   */
  readonly serveVerifiedOnly: boolean;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  readonly corpusPollSeconds: number;
  readonly bodyLimit: string;
  readonly publicBaseUrl: string | undefined;
  /** TRUST_PROXY: reverse proxies whose X-Forwarded-For names the client (IPs, CIDRs, `loopback`); no list: none. */
  readonly trustProxy: AddressList;
  /** OUTBOUND_DENY: addresses the service must not call on a client's behalf (IPs, CIDRs, `private`); no list: none. */
  readonly outboundDeny: AddressList;
  /** RFC 9745 deprecation moment and RFC 8594 sunset of /v1/pa-lookup. */
  readonly paLookupDeprecatedAt: Date;
  readonly paLookupSunsetAt: Date;
  /** cron expression for the scheduled re-ingest of INGEST_SOURCE; empty disables it. */
  readonly ingestCron: string;
  readonly ingestSource: string | undefined;
  /** PRAUTH_INGEST_DIR: the only directory POST /v1/admin/ingest {"path"} may read from (unset: bodies only). */
  readonly ingestDir: string | undefined;
  /** INGEST_BODY_LIMIT: largest body of POST /v1/admin/ingest (records sent inline, e.g. by the CLI). */
  readonly ingestBodyLimit: string;
  readonly keyCacheSeconds: number;
  /** Requests per hour per key for each endpoint group (RATE_LIMITS=lookup=10000,compare=2000,...). */
  readonly rateLimits: Readonly<Record<LimitGroup, number>>;
  readonly demoSessionMinutes: number;
  readonly usageFlushSeconds: number;
  /** PAS_AUTO_DECIDE=approve:30 decides pended PAS items automatically after 30 s (test harnesses); unset: operators decide. */
  readonly pasAutoDecide: { action: 'approve' | 'deny'; afterSeconds: number } | undefined;
  /** How often active PAS subscriptions are checked for a due heartbeat. */
  readonly subscriptionHeartbeatCheckSeconds: number;
  /** CRD: deadline for all reads from the EHR's FHIR server during one hook call (missing prefetch). */
  readonly crdEhrTimeoutMs: number;
  /** How long opening the store (connect, index creation) may take before the start fails with a clear error. */
  readonly storeOpenTimeoutMs: number;
  /** CRD: SMART launch URL of the DTR app offered on verdict cards; unset offers no launch link. */
  readonly dtrLaunchUrl: string | undefined;
  /** PEM certificate chain and private key: both set makes the server speak HTTPS (TLS 1.2 minimum). */
  readonly tlsCertFile: string | undefined;
  readonly tlsKeyFile: string | undefined;
  /** How often the outbox looks for due messages. */
  readonly outboxPollSeconds: number;
  /** Notify-when-ready delivery and contact protection (docs/currency.md). */
  readonly notify: NotifyConfig;
  /** FORMULARY_PUBLIC: the US Drug Formulary read/search endpoints need no key (payers publish formularies openly). */
  readonly formularyPublic: boolean;
}

export interface NotifyConfig {
  /** 32-byte master key (base64 or hex) for contacts at rest; unset: a key file generated at keyFile. */
  readonly contactKey: Buffer | undefined;
  /** Where the generated key lives: outside the data directory, so the data files alone do not reveal contacts. */
  readonly keyFile: string;
  /** smtp:// or smtps:// URL of the mail relay; unset: e-mail messages wait in the outbox. */
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  /** SMS through the Twilio Messages API shape; unset account: SMS messages wait in the outbox. */
  readonly sms: { apiUrl: string; accountSid: string | undefined; authToken: string | undefined; from: string | undefined; messagingServiceSid: string | undefined };
  /** Days after which a rule counts as stale (staleness report, CLI). */
  readonly staleDays: number;
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const int = (name: string, dflt: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return dflt;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got '${raw}')`);
      return dflt;
    }
    return n;
  };
  const bool = (name: string, dflt: boolean): boolean => {
    const raw = env[name];
    if (raw === undefined || raw === '') return dflt;
    if (/^(1|true|yes|on)$/i.test(raw)) return true;
    if (/^(0|false|no|off)$/i.test(raw)) return false;
    problems.push(`${name} must be true or false (got '${raw}')`);
    return dflt;
  };
  const servesVerifiedOnly = (): boolean => {
    const set = (name: string): boolean => env[name] !== undefined && env[name] !== '';
    const sample = set('SERVE_SAMPLE_RULES') ? bool('SERVE_SAMPLE_RULES', false) : undefined;
    const verifiedOnly = set('SERVE_VERIFIED_ONLY') ? bool('SERVE_VERIFIED_ONLY', true) : undefined;
    if (sample !== undefined && verifiedOnly !== undefined && sample === verifiedOnly) {
      problems.push(`SERVE_SAMPLE_RULES=${env.SERVE_SAMPLE_RULES} and SERVE_VERIFIED_ONLY=${env.SERVE_VERIFIED_ONLY} disagree; set SERVE_SAMPLE_RULES only`);
    }
    return sample !== undefined ? !sample : (verifiedOnly ?? true);
  };
  const date = (name: string, dflt: string): Date => {
    const raw = env[name] || dflt;
    const d = new Date(raw);
    if (Number.isNaN(d.getTime())) problems.push(`${name} must be an ISO date (got '${raw}')`);
    return d;
  };

  const logLevel = (env.LOG_LEVEL || 'info') as Config['logLevel'];
  if (!LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LEVELS.join(', ')}`);
  const mongodbUri = env.MONGODB_URI || undefined;
  if (mongodbUri && !/^mongodb(\+srv)?:\/\//.test(mongodbUri)) problems.push('MONGODB_URI must start with mongodb:// or mongodb+srv://');
  const publicBaseUrl = env.PUBLIC_BASE_URL || undefined;
  if (publicBaseUrl && !/^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(publicBaseUrl)) problems.push('PUBLIC_BASE_URL must be an http(s) URL');
  const trustProxy = parseTrustProxy(env.TRUST_PROXY);
  if (trustProxy.problem) problems.push(trustProxy.problem);
  const outboundDeny = parseOutboundDeny(env.OUTBOUND_DENY);
  if (outboundDeny.problem) problems.push(outboundDeny.problem);
  const bodyLimit = env.BODY_LIMIT || '1mb';
  if (!/^\d+(b|kb|mb)$/i.test(bodyLimit)) problems.push(`BODY_LIMIT must look like 512kb or 1mb (got '${bodyLimit}')`);

  const ingestBodyLimit = env.INGEST_BODY_LIMIT || '64mb';
  if (!/^\d+(b|kb|mb)$/i.test(ingestBodyLimit)) problems.push(`INGEST_BODY_LIMIT must look like 512kb or 64mb (got '${ingestBodyLimit}')`);
  let pasAutoDecide: Config['pasAutoDecide'];
  if (env.PAS_AUTO_DECIDE) {
    const m = /^(approve|deny):(\d{1,6})$/.exec(env.PAS_AUTO_DECIDE);
    if (m) pasAutoDecide = { action: m[1] as 'approve' | 'deny', afterSeconds: Number(m[2]) };
    else problems.push(`PAS_AUTO_DECIDE must look like approve:30 or deny:30 (got '${env.PAS_AUTO_DECIDE}')`);
  }
  const dtrLaunchUrl = env.DTR_LAUNCH_URL || undefined;
  if (dtrLaunchUrl && !/^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(dtrLaunchUrl)) problems.push('DTR_LAUNCH_URL must be an http(s) URL');
  const tlsCertFile = env.TLS_CERT_FILE ? resolve(env.TLS_CERT_FILE) : undefined;
  const tlsKeyFile = env.TLS_KEY_FILE ? resolve(env.TLS_KEY_FILE) : undefined;
  if (!!tlsCertFile !== !!tlsKeyFile) problems.push('TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  for (const [name, file] of [['TLS_CERT_FILE', tlsCertFile], ['TLS_KEY_FILE', tlsKeyFile]] as const) {
    if (!file) continue;
    try {
      accessSync(file, fsConstants.R_OK);
    } catch {
      problems.push(`${name} is not a readable file: ${file}`);
    }
  }

  const notify = notifyConfig(env, problems, resolve(env.PRAUTH_DATA_DIR || 'data'), int);
  const limits = parseLimits(env.RATE_LIMITS);
  problems.push(...limits.problems);
  const config: Config = {
    port: int('PORT', 8080, 0, 65535),
    host: env.HOST || '0.0.0.0',
    mongodbUri,
    mongodbDb: env.MONGODB_DB || 'prauth',
    dataDir: resolve(env.PRAUTH_DATA_DIR || 'data'),
    fixturesDir: resolve(env.PRAUTH_FIXTURES_DIR || 'fixtures'),
    loadSample: bool('PRAUTH_LOAD_SAMPLE', true),
    serveVerifiedOnly: servesVerifiedOnly(),
    logLevel,
    corpusPollSeconds: int('CORPUS_POLL_SECONDS', 10, 1, 3600),
    bodyLimit,
    publicBaseUrl: publicBaseUrl?.replace(/\/$/, ''),
    // Parsed once here: the dispatcher and the outbound check use the lists as they are.
    trustProxy: { entries: trustProxy.entries, ...(trustProxy.list ? { list: trustProxy.list } : {}) },
    outboundDeny: { entries: outboundDeny.entries, ...(outboundDeny.list ? { list: outboundDeny.list } : {}) },
    paLookupDeprecatedAt: date('PA_LOOKUP_DEPRECATED_AT', '2026-11-21T00:00:00Z'),
    paLookupSunsetAt: date('PA_LOOKUP_SUNSET_AT', '2027-06-30T23:59:59Z'),
    ingestCron: env.INGEST_CRON || '',
    ingestSource: env.INGEST_SOURCE || undefined,
    ingestDir: env.PRAUTH_INGEST_DIR ? resolve(env.PRAUTH_INGEST_DIR) : undefined,
    ingestBodyLimit,
    keyCacheSeconds: int('KEY_CACHE_SECONDS', 5, 0, 60),
    rateLimits: Object.freeze(limits.limits),
    demoSessionMinutes: int('DEMO_SESSION_MINUTES', 60, 1, 24 * 60),
    usageFlushSeconds: int('USAGE_FLUSH_SECONDS', 5, 1, 300),
    pasAutoDecide,
    subscriptionHeartbeatCheckSeconds: int('SUBSCRIPTION_HEARTBEAT_CHECK_SECONDS', 5, 1, 3600),
    crdEhrTimeoutMs: int('CRD_EHR_TIMEOUT_MS', 2000, 50, 30000),
    storeOpenTimeoutMs: int('STORE_OPEN_TIMEOUT_SECONDS', 60, 1, 3600) * 1000,
    dtrLaunchUrl,
    tlsCertFile,
    tlsKeyFile,
    outboxPollSeconds: int('OUTBOX_POLL_SECONDS', 5, 1, 3600),
    notify,
    formularyPublic: bool('FORMULARY_PUBLIC', true),
  };
  if (config.paLookupSunsetAt.getTime() - config.paLookupDeprecatedAt.getTime() < 182 * 86400_000) {
    problems.push('PA_LOOKUP_SUNSET_AT must be at least 6 months after PA_LOOKUP_DEPRECATED_AT (spec 9.7)');
  }
  if (problems.length) throw new ConfigError(problems);
  return Object.freeze(config);
}

function notifyConfig(
  env: NodeJS.ProcessEnv,
  problems: string[],
  dataDir: string,
  int: (name: string, dflt: number, min: number, max: number) => number,
): NotifyConfig {
  let contactKey: Buffer | undefined;
  const rawKey = env.NOTIFY_CONTACT_KEY;
  if (rawKey) {
    const k = /^[0-9a-fA-F]{64}$/.test(rawKey) ? Buffer.from(rawKey, 'hex') : Buffer.from(rawKey, 'base64');
    if (k.length !== 32) problems.push('NOTIFY_CONTACT_KEY must be 32 bytes, as 64 hex digits or base64');
    else contactKey = k;
  }
  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl && !/^smtps?:\/\/[^\s]+$/.test(smtpUrl)) problems.push('SMTP_URL must be an smtp:// or smtps:// URL');
  const mailFrom = env.MAIL_FROM || 'prauth <no-reply@localhost>';
  if (!/@/.test(mailFrom)) problems.push('MAIL_FROM must contain an e-mail address');
  const apiUrl = (env.SMS_API_URL || 'https://api.twilio.com').replace(/\/$/, '');
  if (!/^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(apiUrl)) problems.push('SMS_API_URL must be an http(s) URL');
  const provider = env.SMS_PROVIDER || 'twilio';
  if (provider !== 'twilio') problems.push("SMS_PROVIDER must be 'twilio' (the Twilio Messages API shape)");
  const accountSid = env.SMS_ACCOUNT_SID || undefined;
  const authToken = env.SMS_AUTH_TOKEN || undefined;
  const from = env.SMS_FROM || undefined;
  const messagingServiceSid = env.SMS_MESSAGING_SERVICE_SID || undefined;
  if (accountSid && (!authToken || (!from && !messagingServiceSid))) problems.push('SMS_ACCOUNT_SID needs SMS_AUTH_TOKEN and SMS_FROM (or SMS_MESSAGING_SERVICE_SID)');
  return {
    contactKey,
    keyFile: resolve(env.NOTIFY_KEY_FILE || `${dataDir}.contact-key`),
    smtpUrl,
    mailFrom,
    sms: { apiUrl, accountSid, authToken, from, messagingServiceSid },
    staleDays: int('STALE_DAYS', 7, 0, 36500),
  };
}

/** What an operator should know about the settings left unset (none of them stops the service). */
export function deploymentWarnings(config: Config): string[] {
  const out: string[] = [];
  if (!config.dtrLaunchUrl) out.push('DTR_LAUNCH_URL is unset: CRD cards link each rule\'s source, not a DTR app (docs/crd.md)');
  if (!config.publicBaseUrl) out.push('PUBLIC_BASE_URL is unset: links use the request Host, and messages link to this server\'s own origin (docs/currency.md)');
  if (!config.outboundDeny.list) out.push('OUTBOUND_DENY is unset: a keyed caller can have the service call any address, private ones included (docs/crd.md)');
  return out;
}
