// Trunk post_build hook: the catalogues of the page's other languages (src/i18n/locales/
// <lang>.txt: each English text the code says, then its translation) shipped as
// dist/locales/<lang>.txt, one `<key>\t<translation>` line per text, the key being FNV-1a (32
// bits) of the English text's UTF-8 bytes in hex, as src/i18n/mod.rs computes it. The page
// fetches a language's file when it is chosen. Fails on a malformed source or on two English
// texts with one key (the page could not tell them apart).
import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const sources = 'src/i18n/locales';
const dist = process.env.TRUNK_STAGING_DIR ?? 'dist';

/** FNV-1a, 32 bits, of the UTF-8 bytes of `text`. */
export function key(text) {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash >>> 0;
}

/** The entries of a catalogue's source: [{ english, translation, line }], or throws. */
export function readSource(text, tag, name) {
  const entries = [];
  let english = null;
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    if (line === '' || line.startsWith('#')) return;
    const at = `${name}:${i + 1}`;
    if (line.startsWith('en: ')) {
      if (english !== null) throw new Error(`${at}: an English text without a translation before it`);
      english = { text: line.slice(4), line: i + 1 };
    } else if (line.startsWith(`${tag}: `)) {
      if (english === null) throw new Error(`${at}: a translation without its English text`);
      const translation = line.slice(tag.length + 2);
      if (translation.trim() === '') throw new Error(`${at}: an empty translation`);
      entries.push({ english: english.text.replaceAll('\\n', '\n'), translation, line: english.line });
      english = null;
    } else {
      throw new Error(`${at}: a line that is neither "en: …" nor "${tag}: …"`);
    }
  });
  if (english !== null) throw new Error(`${name}:${english.line}: an English text without a translation`);
  return entries;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  if (!existsSync(sources)) process.exit(0);
  mkdirSync(join(dist, 'locales'), { recursive: true });
  for (const file of readdirSync(sources).filter((f) => f.endsWith('.txt')).sort()) {
    const tag = file.slice(0, -4);
    const entries = readSource(readFileSync(join(sources, file), 'utf8'), tag, file);
    const seen = new Map();
    const lines = [];
    for (const { english, translation, line } of entries) {
      const k = key(english);
      const before = seen.get(k);
      if (before !== undefined && before.english !== english) {
        throw new Error(`${file}:${line}: "${english}" has the key of "${before.english}" (line ${before.line})`);
      }
      if (before !== undefined) throw new Error(`${file}:${line}: "${english}" twice (line ${before.line})`);
      seen.set(k, { english, line });
      lines.push([k, `${k.toString(16).padStart(8, '0')}\t${translation}`]);
    }
    // Ascending by key: the page finds a text by binary search and checks the order.
    lines.sort((a, b) => a[0] - b[0]);
    writeFileSync(join(dist, 'locales', file), lines.map(([, line]) => line).join('\n') + '\n');
    console.log(`locales: ${tag}, ${lines.length} texts`);
  }
}
