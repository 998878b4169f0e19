// Notify settings are validated at start with every problem listed; the contact vault seals, hashes and signs.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createContactVault, loadOrCreateKeyFile } from '../../src/services/contact-vault.js';
import { normalizeEmail, normalizePhone } from '../../src/services/notify-request.js';

describe('currency configuration', () => {
  it('when the notify settings are wrong, then start fails listing each one', () => {
    let err: ConfigError | undefined;
    try {
      loadConfig({ NOTIFY_CONTACT_KEY: 'short', SMTP_URL: 'http://mail', MAIL_FROM: 'nobody', SMS_PROVIDER: 'carrier-pigeon', SMS_ACCOUNT_SID: 'AC1', STALE_DAYS: '-1' });
    } catch (e) {
      err = e as ConfigError;
    }
    expect(err).to.be.instanceOf(ConfigError);
    const text = err!.problems.join('\n');
    for (const name of ['NOTIFY_CONTACT_KEY', 'SMTP_URL', 'MAIL_FROM', 'SMS_PROVIDER', 'SMS_ACCOUNT_SID', 'STALE_DAYS']) expect(text).to.contain(name);
  });

  it('when a 64-hex-digit or base64 key is given, then it is the 32-byte master key; the default key file sits beside the data directory', () => {
    const hex = 'ab'.repeat(32);
    expect(loadConfig({ NOTIFY_CONTACT_KEY: hex }).notify.contactKey!.toString('hex')).to.equal(hex);
    expect(loadConfig({ NOTIFY_CONTACT_KEY: Buffer.alloc(32, 7).toString('base64') }).notify.contactKey!.equals(Buffer.alloc(32, 7))).to.equal(true);
    const c = loadConfig({ PRAUTH_DATA_DIR: '/srv/prauth/data' });
    expect(c.notify.keyFile).to.equal('/srv/prauth/data.contact-key');
    expect(c.notify.smtpUrl).to.equal(undefined);
  });
});

describe('contact vault', () => {
  const vault = createContactVault(Buffer.alloc(32, 1));

  it('seals with a fresh IV each time and opens only what it sealed', () => {
    const a = vault.encrypt('someone@example.org');
    const b = vault.encrypt('someone@example.org');
    expect(a).to.not.equal(b);
    expect(a).to.not.contain('someone');
    expect(vault.decrypt(a)).to.equal('someone@example.org');
    const [v, iv, ct, tag] = a.split('.');
    const flipped = Buffer.from(ct!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    const tampered = [v, iv, flipped.toString('base64url'), tag].join('.');
    expect(() => vault.decrypt(tampered)).to.throw();
    expect(() => createContactVault(Buffer.alloc(32, 2)).decrypt(a)).to.throw();
  });

  it('hashes per channel with a key (not a bare SHA-256), and signs unsubscribe tokens', () => {
    expect(vault.hash('email', 'a@example.org')).to.equal(vault.hash('email', 'a@example.org'));
    expect(vault.hash('email', 'a@example.org')).to.not.equal(vault.hash('sms', 'a@example.org'));
    expect(vault.hash('email', 'a@example.org')).to.not.equal(createContactVault(Buffer.alloc(32, 2)).hash('email', 'a@example.org'));
    const token = vault.unsubscribeToken('w123');
    expect(vault.verifyUnsubscribeToken(token)).to.equal('w123');
    expect(vault.verifyUnsubscribeToken(token.replace('w123', 'w124'))).to.equal(undefined);
    expect(createContactVault(Buffer.alloc(32, 2)).verifyUnsubscribeToken(token)).to.equal(undefined);
    expect(vault.verifyUnsubscribeToken('garbage')).to.equal(undefined);
  });

  it('creates the key file once, mode 0600, and reads the same key back', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'prauth-key-')), 'nested', 'contact.key');
    const k1 = loadOrCreateKeyFile(path);
    const k2 = loadOrCreateKeyFile(path);
    expect(k1.equals(k2)).to.equal(true);
    expect(statSync(path).mode & 0o777).to.equal(0o600);
    expect(readFileSync(path, 'utf8').trim()).to.match(/^[0-9a-f]{64}$/);
  });

  it('normalises contacts: e-mail domain lower-cased, phones to E.164 when the numbering plan allows them', () => {
    expect(normalizeEmail('Jane.Doe@Clinic.Example.ORG')).to.equal('Jane.Doe@clinic.example.org');
    expect(normalizeEmail('jane@localhost')).to.equal(undefined);
    expect(normalizeEmail(`${'x'.repeat(65)}@example.org`)).to.equal(undefined);
    expect(normalizePhone('+1 (512) 555-0123')).to.equal('+15125550123');
    expect(normalizePhone('+44 20 7946 0000')).to.equal('+442079460000');
    expect(normalizePhone('+1 555 555 5555')).to.equal(undefined);
    expect(normalizePhone('512-555-0123')).to.equal(undefined);
  });
});
