// What the explorer reads from the service: public JSON, plus the rule itself with a key the user typed. The key lives
// in this module's memory only: never in the URL, storage or a cookie, and gone when the page is closed or reloaded.
export type CellStatus = 'verified' | 'sample' | 'gap';

export interface CoverageGrid {
  program: string;
  served_statuses: string[];
  subjects: { kind: 'drug' | 'service'; code: string; label: string }[];
  states: { state: string; name: string; verified: number; sample: number; cells: CellStatus[]; not_covered: string[]; applies_to?: Record<string, string> }[];
  totals: Record<CellStatus, number>;
}

export interface Manifest {
  sample: boolean;
  notice: string;
  coverage: { programs: string[]; verified: { rules: number; of_combinations: number; outside_program_combinations: number; percent: number; by_program: Record<string, number> } };
}

export interface ApiAnswer<T> {
  status: number;
  body: T;
}

let apiKey: string | undefined;
export const hasKey = (): boolean => apiKey !== undefined;
export const setKey = (key: string | undefined): void => {
  apiKey = key?.trim() || undefined;
};

async function call<T>(path: string, init: RequestInit = {}): Promise<ApiAnswer<T>> {
  const res = await fetch(path, { ...init, headers: { Accept: 'application/json', ...(init.headers as Record<string, string> | undefined) } });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = { error: text.slice(0, 200) };
  }
  return { status: res.status, body: body as T };
}

export async function publicJson<T>(path: string): Promise<T> {
  const { status, body } = await call<T>(path);
  if (status !== 200) throw new Error(`${path} answered ${status}`);
  return body;
}

export function ruleLookup(state: string, program: string, kind: 'drug' | 'service', code: string): Promise<ApiAnswer<Record<string, unknown>>> {
  const q = new URLSearchParams({ state, program, [kind]: code });
  return call(`/v1/pauth-lookup?${q}`, { headers: apiKey ? { 'x-api-key': apiKey } : {} });
}

export function notifyWhenReady(body: Record<string, string>): Promise<ApiAnswer<Record<string, unknown>>> {
  return call('/v1/notify-when-ready', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
}
