// Reading parsed JSON that came from outside: is this value an object with members (not null, not an array)?
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
