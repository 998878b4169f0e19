// The official hosts the corpus build accepts: corpus/facts/official-domains.yaml plus every fact file's vendor_domains.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const dir = fileURLToPath(new URL('../../corpus/facts', import.meta.url));

export function officialHostList(): string[] {
  const hosts = (parse(readFileSync(join(dir, 'official-domains.yaml'), 'utf8')) as { domains: { host: string }[] }).domains.map((d) => d.host);
  for (const sub of ['', 'national']) {
    for (const f of readdirSync(join(dir, sub))) {
      if (!f.endsWith('.yaml') || f === 'official-domains.yaml') continue;
      const doc = parse(readFileSync(join(dir, sub, f), 'utf8')) as { vendor_domains?: { host: string }[] } | null;
      for (const v of doc?.vendor_domains ?? []) hosts.push(v.host);
    }
  }
  return hosts;
}
