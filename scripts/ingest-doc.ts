// Writes docs/ingest.md from the ingest schemas: `npm run docs:ingest`.
import { writeFileSync } from 'node:fs';
import { renderIngestDoc } from '../src/ingest/ingest-doc.js';

writeFileSync(new URL('../docs/ingest.md', import.meta.url), renderIngestDoc());
