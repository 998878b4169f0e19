// SMART App Launch 2.x system scopes, read and matched. v2 form `system/Claim.c`, `system/*.rs` (letters in the
// order c r u d s); v1 form `system/*.read`, `system/Claim.write`, `system/*.*` is accepted and read as its v2
// equivalent (read = rs, write = cud, * = cruds). A scope may carry a query suffix (`?category=...`), which this
// service does not narrow by, so such a scope is not granted (it would promise a filter that is not applied).

export type Interaction = 'c' | 'r' | 'u' | 'd' | 's';

/** What a route does in SMART v2 terms: the resource types it returns or takes, and the interactions any one of
 * which allows it (a GET of a Bundle is a read or a search). */
export interface SmartNeed {
  resources: readonly string[];
  interactions: readonly Interaction[];
}

export interface SystemScope {
  /** A FHIR resource type or `*`. */
  resource: string;
  /** Granted interactions. */
  interactions: ReadonlySet<Interaction>;
}

const V2 = /^system\/([A-Z][A-Za-z]*|\*)\.(c?r?u?d?s?)$/;
const V1 = /^system\/([A-Z][A-Za-z]*|\*)\.(read|write|\*)$/;
const V1_MEANING: Record<string, string> = { read: 'rs', write: 'cud', '*': 'cruds' };

/** A system scope, or null when the text is not one (user/patient scopes, launch, openid and unknown forms). */
export function parseSystemScope(text: string): SystemScope | null {
  const v2 = V2.exec(text);
  if (v2 && v2[2]) return { resource: v2[1]!, interactions: new Set(v2[2].split('') as Interaction[]) };
  const v1 = V1.exec(text);
  if (v1) return { resource: v1[1]!, interactions: new Set(V1_MEANING[v1[2]!]!.split('') as Interaction[]) };
  return null;
}

/** Whether the granted scopes allow `need` on every resource it names. */
export function grants(scopes: readonly string[], need: SmartNeed): boolean {
  const parsed = scopes.map(parseSystemScope).filter((s): s is SystemScope => s !== null);
  return need.resources.every((resource) =>
    parsed.some((s) => (s.resource === '*' || s.resource === resource) && need.interactions.some((i) => s.interactions.has(i))),
  );
}

/** The scopes a token may carry on this server: system scopes over resource types it serves (or `*`). */
export function grantable(requested: readonly string[], servedTypes: ReadonlySet<string>): string[] {
  return [...new Set(requested)].filter((text) => {
    const s = parseSystemScope(text);
    return s !== null && (s.resource === '*' || servedTypes.has(s.resource));
  });
}

/** A need written as v2 scopes, one per resource (for messages and scopes_supported). */
export const scopesFor = (need: SmartNeed): string[] => need.resources.map((r) => `system/${r}.${need.interactions.join('')}`);
