// Opaque fields (OPAQUE_FIELDS: a stored FHIR Bundle, a response view) are written as JSON text by both adapters and
// parsed back on read. The embedded store then copies one string instead of walking every element; a MongoDB-
// compatible server stores what a client sent whatever its shape (FerretDB 1.x refuses nested arrays, for one,
// which a request Bundle may carry). A value stored as an object by an earlier version is read as it is.
import { OPAQUE_FIELDS } from './collections.js';

type Doc = Record<string, unknown>;

export interface Packer {
  pack: (d: Doc) => Doc;
  unpack: (d: Doc) => Doc;
}

export function packerFor(collection: string): Packer {
  const opaque = OPAQUE_FIELDS[collection] ?? [];
  if (!opaque.length) return { pack: (d) => d, unpack: (d) => d };
  return {
    pack(d) {
      const out = { ...d };
      for (const f of opaque) if (out[f] !== undefined && out[f] !== null) out[f] = JSON.stringify(out[f]);
      return out;
    },
    unpack(d) {
      for (const f of opaque) if (typeof d[f] === 'string') d[f] = JSON.parse(d[f] as string) as unknown;
      return d;
    },
  };
}
