/**
 * The destination of a PIN, masked for the consent receipt: enough for a loan officer to match it
 * with the person (the last digits, the e-mail's domain), not enough to contact them.
 */
export function maskDestination(channel: 'SMS' | 'EMAIL', destination: string | null): string | null {
  if (!destination) return null;
  if (channel === 'SMS') {
    const digits = destination.replace(/\D/g, '');
    return `${'*'.repeat(Math.max(0, digits.length - 4))}${digits.slice(-4)}`;
  }
  const at = destination.lastIndexOf('@');
  if (at < 1) return '***';
  return `${destination[0]}***${destination.slice(at)}`;
}
