// Contacts at rest (docs/currency.md): AES-256-GCM under a key derived from a master key that is NOT in the data
// directory (NOTIFY_CONTACT_KEY, or a generated key file beside it, mode 0600); a keyed hash (HMAC-SHA256 under a
// second derived key) finds duplicates and counts per-contact limits without the clear contact; unsubscribe tokens
// are HMACs of the watch id under a third derived key, so nothing secret about them is stored.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface ContactVault {
  encrypt(contact: string): string;
  decrypt(sealed: string): string;
  /** Keyed hash of a normalised contact (per channel), hex. */
  hash(channel: string, contact: string): string;
  unsubscribeToken(watchId: string): string;
  /** The watch id a token was made for, or undefined when the token is not ours. */
  verifyUnsubscribeToken(token: string): string | undefined;
}

const SALT = Buffer.from('prauth notify-when-ready v1');
const derive = (master: Buffer, info: string): Buffer => Buffer.from(hkdfSync('sha256', master, SALT, info, 32));

/** Reads the key file, or creates it (32 random bytes, hex, mode 0600) the first time. */
export function loadOrCreateKeyFile(path: string): Buffer {
  if (existsSync(path)) {
    const text = readFileSync(path, 'utf8').trim();
    const key = Buffer.from(text, 'hex');
    if (key.length !== 32 || !/^[0-9a-f]{64}$/i.test(text)) throw new Error(`contact key file ${path} must hold 64 hex digits`);
    return key;
  }
  mkdirSync(dirname(path), { recursive: true });
  const key = randomBytes(32);
  // 'wx': never overwrite a key another process created meanwhile (it would orphan every stored contact).
  try {
    writeFileSync(path, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateKeyFile(path);
    throw err;
  }
  chmodSync(path, 0o600);
  return key;
}

export function createContactVault(master: Buffer): ContactVault {
  const encKey = derive(master, 'contact-encryption');
  const macKey = derive(master, 'contact-hash');
  const unsubKey = derive(master, 'unsubscribe-token');
  const mac = (key: Buffer, text: string): Buffer => createHmac('sha256', key).update(text).digest();
  return {
    encrypt(contact) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', encKey, iv);
      const ct = Buffer.concat([cipher.update(contact, 'utf8'), cipher.final()]);
      return `v1.${iv.toString('base64url')}.${ct.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
    },
    decrypt(sealed) {
      const [v, iv, ct, tag] = sealed.split('.');
      if (v !== 'v1' || !iv || ct === undefined || !tag) throw new Error('not a sealed contact');
      const decipher = createDecipheriv('aes-256-gcm', encKey, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
    },
    hash(channel, contact) {
      return mac(macKey, `${channel}\u0000${contact}`).toString('hex');
    },
    unsubscribeToken(watchId) {
      return `${watchId}.${mac(unsubKey, watchId).toString('base64url')}`;
    },
    verifyUnsubscribeToken(token) {
      const dot = token.lastIndexOf('.');
      if (dot <= 0 || token.length > 200) return undefined;
      const id = token.slice(0, dot);
      const given = Buffer.from(token.slice(dot + 1), 'base64url');
      const expected = mac(unsubKey, id);
      return given.length === expected.length && timingSafeEqual(given, expected) ? id : undefined;
    },
  };
}

/** A lazily opened vault: the key file is only created when a contact is first stored or read. */
export function lazyVault(config: { contactKey: Buffer | undefined; keyFile: string }): ContactVault {
  let vault: ContactVault | undefined;
  const get = (): ContactVault => (vault ??= createContactVault(config.contactKey ?? loadOrCreateKeyFile(config.keyFile)));
  return {
    encrypt: (c) => get().encrypt(c),
    decrypt: (s) => get().decrypt(s),
    hash: (ch, c) => get().hash(ch, c),
    unsubscribeToken: (id) => get().unsubscribeToken(id),
    verifyUnsubscribeToken: (t) => get().verifyUnsubscribeToken(t),
  };
}
