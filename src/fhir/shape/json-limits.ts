// Size limits of a parsed JSON body, checked iteratively (no recursion: a hostile body cannot overflow the stack
// here, and nothing recursive reads it until it has passed).

export interface JsonLimits {
  /** Deepest nesting of objects and arrays (the root object is depth 1). */
  maxDepth: number;
  /** Most values (objects, arrays, strings, numbers, booleans, nulls) in the whole body. */
  maxNodes: number;
}

/** FHIR resources nest deeply (Bundle > entry > resource > item > answer > item ...) but not beyond this. */
export const BODY_LIMITS: JsonLimits = { maxDepth: 64, maxNodes: 200_000 };

/**
 * A bulk records body (an admin ingest: the CLI sends a whole corpus, about a million values): its byte limit
 * (INGEST_BODY_LIMIT) bounds it, so only the nesting depth is held to the usual limit.
 */
export const RECORDS_BODY_LIMITS: JsonLimits = { maxDepth: 64, maxNodes: Number.POSITIVE_INFINITY };

export interface LimitProblem {
  message: string;
  /** Where the limit was crossed, as a dotted path of property names and [indexes] (names only, never values). */
  path: string;
}

const MAX_PATH = 200;
const segment = (key: string | number): string => (typeof key === 'number' ? `[${key}]` : /^[A-Za-z_$][\w$-]{0,63}$/.test(key) ? `.${key}` : '.(name)');

/** A value on the walk: its parent and key, so the path is spelled only when a limit is crossed. */
interface Step {
  value: unknown;
  depth: number;
  parent: Step | undefined;
  key: string | number;
}

function pathOf(step: Step): string {
  const keys: (string | number)[] = [];
  for (let s: Step | undefined = step; s?.parent; s = s.parent) keys.push(s.key);
  let path = '';
  for (let i = keys.length - 1; i >= 0 && path.length < MAX_PATH; i--) path += segment(keys[i]!);
  return path.slice(0, MAX_PATH);
}

export function checkJsonLimits(body: unknown, limits: JsonLimits = BODY_LIMITS): LimitProblem | undefined {
  return withinLimits(body, limits) ? undefined : firstProblem(body, limits);
}

/**
 * The usual body: whether it is within the limits, counting values without a record per value (only objects and
 * arrays are stacked). Whether a limit is crossed does not depend on the order of the walk, so a body found over
 * a limit here is walked again by firstProblem, which names where.
 */
function withinLimits(body: unknown, limits: JsonLimits): boolean {
  if (typeof body !== 'object' || body === null) return true;
  const values: object[] = [body];
  const depths: number[] = [1];
  let nodes = 1;
  while (values.length) {
    const value = values.pop()!;
    const depth = depths.pop()!;
    if (depth > limits.maxDepth) return false;
    if (Array.isArray(value)) {
      nodes += value.length;
      if (nodes > limits.maxNodes) return false;
      for (const x of value) {
        if (typeof x === 'object' && x !== null) {
          values.push(x);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const k in value) {
        if (++nodes > limits.maxNodes) return false;
        const x = (value as Record<string, unknown>)[k];
        if (typeof x === 'object' && x !== null) {
          values.push(x);
          depths.push(depth + 1);
        }
      }
    }
  }
  return true;
}

function firstProblem(body: unknown, limits: JsonLimits): LimitProblem | undefined {
  const stack: Step[] = [{ value: body, depth: 1, parent: undefined, key: '' }];
  let nodes = 0;
  while (stack.length) {
    const step = stack.pop()!;
    const { value, depth } = step;
    if (++nodes > limits.maxNodes) return { message: `The body has more than ${limits.maxNodes} values`, path: pathOf(step) };
    if (typeof value !== 'object' || value === null) continue;
    if (depth > limits.maxDepth) return { message: `The body nests deeper than ${limits.maxDepth} levels`, path: pathOf(step) };
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], depth: depth + 1, parent: step, key: i });
    } else {
      for (const k in value) stack.push({ value: (value as Record<string, unknown>)[k], depth: depth + 1, parent: step, key: k });
    }
  }
  return undefined;
}
