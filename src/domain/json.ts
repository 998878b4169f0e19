// Reading parsed JSON that came from outside: is this value an object with members (not null, not an array)?
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** The objects of a list that came from outside: nothing when it is not a list, and no null, number or string member. */
export const recordsOf = <T = Record<string, unknown>>(v: unknown): T[] => (Array.isArray(v) ? (v.filter(isRecord) as T[]) : []);
