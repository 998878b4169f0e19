// Whom a requirement speaks for, by age (requirement.ages, from the curated facts): CRD and PAS read the patient's
// age against it, so a rule for members younger than 18 is not applied to a 75-year-old's order.

/** Age in whole years on `on` (YYYY-MM-DD) for a FHIR birthDate; undefined when the date is partial or invalid. */
export function ageOn(birthDate: unknown, on: string): number | undefined {
  if (typeof birthDate !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(birthDate) || !/^\d{4}-\d{2}-\d{2}/.test(on)) return undefined;
  const [by, bm, bd] = birthDate.split('-').map(Number) as [number, number, number];
  const [y, m, d] = on.slice(0, 10).split('-').map(Number) as [number, number, number];
  if (bm < 1 || bm > 12 || bd < 1 || bd > 31 || birthDate > on.slice(0, 10)) return undefined;
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/** Whether an age lies outside inclusive bounds (no bounds: never outside). */
export function outsideAges(ages: { min?: number; max?: number } | undefined, age: number | undefined): boolean {
  if (!ages || age === undefined) return false;
  return (ages.min !== undefined && age < ages.min) || (ages.max !== undefined && age > ages.max);
}

/**
 * The patient's age where a requirement's ages leave it out (the rule does not speak for this patient); undefined where
 * the rule applies, or the age or the bounds are unknown.
 */
export function ageOutside(ages: { min?: number; max?: number } | undefined, birthDate: unknown, on: string): number | undefined {
  const age = ageOn(birthDate, on);
  return outsideAges(ages, age) ? age : undefined;
}
