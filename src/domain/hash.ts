// SHA-256 as the service stores secrets and derives ids: hex of the UTF-8 text.
import { createHash } from 'node:crypto';

export const sha256Hex = (s: string): string => createHash('sha256').update(s).digest('hex');
