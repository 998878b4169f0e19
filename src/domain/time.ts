// Calendar dates as the interface writes them (YYYY-MM-DD, UTC) and day arithmetic on them.
export const DAY_MS = 86_400_000;
export const isoDate = (d: Date): string => d.toISOString().slice(0, 10);
export const addDays = (date: string, days: number): string => isoDate(new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS));
export const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** The number of days in a month (1-12) of a year: day 0 of the next month is the last day of this one. */
export const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * A FHIR dateTime (R4 datatypes.html#dateTime): YYYY, YYYY-MM, YYYY-MM-DD, or a full time with seconds and a zone,
 * and a real calendar date (2026-02-30 and 2026-13-45 are not).
 */
export function isFhirDateTime(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(?:\.\d{1,9})?(?:Z|[+-](?:0\d|1[0-3]):[0-5]\d|[+-]14:00))?)?)?$/.exec(v);
  if (!m) return false;
  const [, y, mo, d] = m;
  if (mo === undefined) return true;
  const month = Number(mo);
  if (month < 1 || month > 12) return false;
  if (d === undefined) return true;
  const day = Number(d);
  return day >= 1 && day <= daysInMonth(Number(y), month);
}
