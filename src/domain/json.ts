// Reading parsed JSON that came from outside: is this value an object with members (not null, not an array)?
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** The objects of a list that came from outside: nothing when it is not a list, and no null, number or string member. */
export const recordsOf = <T = Record<string, unknown>>(v: unknown): T[] => (Array.isArray(v) ? (v.filter(isRecord) as T[]) : []);

/** Freezes a value and everything in it: for values made once and shared by many answers (no answer can change them). */
export function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}
