/** A password the service or the CLI makes up for an operator: 18 random bytes, 24 URL-safe characters. */
import { randomBytes } from 'node:crypto';

export const generatePassword = (): string => randomBytes(18).toString('base64url');
