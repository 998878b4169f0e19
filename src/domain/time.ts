// Calendar dates as the interface writes them (YYYY-MM-DD, UTC) and day arithmetic on them.
export const DAY_MS = 86_400_000;
export const isoDate = (d: Date): string => d.toISOString().slice(0, 10);
export const addDays = (date: string, days: number): string => isoDate(new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS));
export const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
