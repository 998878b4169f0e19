// Reads from an EHR's FHIR server on behalf of a CDS Hooks call (CDS Hooks "FHIR resource access"): the request's
// `fhirServer` with its `fhirAuthorization` bearer token, through fhir-kit-client, every read of one hook call under
// one deadline. The token goes to that server only (relative references only; never to another host) and is never
// logged.
import type { EhrReader } from '../fhir/crd/hook-data.js';
import type { FhirAuthorization } from '../fhir/crd/types.js';
import type { Bundle, Resource } from '../fhir/r4.js';
import { OutboundRefused, type OutboundCheck } from '../domain/outbound.js';

export interface EhrFetcher {
  /** A reader for one hook call, or undefined when the request gives no usable server and bearer token. */
  session(fhirServer: unknown, auth: unknown): EhrReader | undefined;
  readonly timeoutMs: number;
}

/** The fhirServer must be an absolute http(s) URL without credentials or fragment. */
export function usableServer(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.length > 2048) return undefined;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return undefined;
  }
  if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.username || u.password || u.hash) return undefined;
  return raw.replace(/\/+$/, '');
}

const usableAuth = (raw: unknown): FhirAuthorization | undefined => {
  if (!raw || typeof raw !== 'object') return undefined;
  const a = raw as Partial<FhirAuthorization>;
  if (typeof a.access_token !== 'string' || !a.access_token || a.access_token.length > 8192 || /[\r\n]/.test(a.access_token)) return undefined;
  if (typeof a.token_type !== 'string' || a.token_type.toLowerCase() !== 'bearer') return undefined;
  return a as FhirAuthorization;
};

export function createEhrFetcher(opts: { timeoutMs: number; outbound?: OutboundCheck }): EhrFetcher {
  // fhir-kit-client is ESM-only: loaded once, on first use.
  let clientClass: Promise<typeof import('fhir-kit-client').Client> | undefined;
  const load = () => (clientClass ??= import('fhir-kit-client').then((m) => m.Client));
  return {
    timeoutMs: opts.timeoutMs,
    session(fhirServer, auth) {
      const baseUrl = usableServer(fhirServer);
      const token = usableAuth(auth);
      if (!baseUrl || !token) return undefined;
      // One deadline for every read of this hook call.
      const signal = AbortSignal.timeout(opts.timeoutMs);
      // The fhirServer is checked against OUTBOUND_DENY before any read: a refused one reads nothing, and says why.
      const client = (opts.outbound ? opts.outbound(baseUrl) : Promise.resolve(undefined)).then(async (refused) => {
        if (refused) throw new OutboundRefused(`the fhirServer cannot be used: ${refused}`);
        const Client = await load();
        return new Client({ baseUrl, bearerToken: token.access_token, customHeaders: { Accept: 'application/fhir+json' } });
      });
      const bounded = <T>(p: Promise<T>): Promise<T> =>
        new Promise<T>((resolve, reject) => {
          if (signal.aborted) return reject(signal.reason);
          const onAbort = () => reject(signal.reason);
          signal.addEventListener('abort', onAbort, { once: true });
          p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
        });
      return {
        read: async (resourceType, id) => bounded((await client).read({ resourceType, id, options: { signal } }) as unknown as Promise<Resource>),
        search: async (resourceType, params) => bounded((await client).search({ resourceType, searchParams: params, options: { signal } }) as unknown as Promise<Bundle>),
      };
    },
  };
}
