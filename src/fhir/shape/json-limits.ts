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

export interface LimitProblem {
  message: string;
  /** Where the limit was crossed, as a dotted path of property names and [indexes] (names only, never values). */
  path: string;
}

const MAX_PATH = 200;
const segment = (key: string | number): string => (typeof key === 'number' ? `[${key}]` : /^[A-Za-z_$][\w$-]{0,63}$/.test(key) ? `.${key}` : '.(name)');

export function checkJsonLimits(body: unknown, limits: JsonLimits = BODY_LIMITS): LimitProblem | undefined {
  const stack: { value: unknown; depth: number; path: string }[] = [{ value: body, depth: 1, path: '' }];
  let nodes = 0;
  while (stack.length) {
    const { value, depth, path } = stack.pop()!;
    if (++nodes > limits.maxNodes) return { message: `The body has more than ${limits.maxNodes} values`, path: path.slice(0, MAX_PATH) };
    if (typeof value !== 'object' || value === null) continue;
    if (depth > limits.maxDepth) return { message: `The body nests deeper than ${limits.maxDepth} levels`, path: path.slice(0, MAX_PATH) };
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], depth: depth + 1, path: path.length < MAX_PATH ? path + segment(i) : path });
    } else {
      for (const k of Object.keys(value)) stack.push({ value: (value as Record<string, unknown>)[k], depth: depth + 1, path: path.length < MAX_PATH ? path + segment(k) : path });
    }
  }
  return undefined;
}
