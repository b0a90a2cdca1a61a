/**
 * The affiliate types the console offers, with their Spanish names. The API takes any text up to 64
 * characters; the console keeps to the ones partners send (SELLER is the sandbox's and the docs'
 * example, DEALER was the form's default), so the same type is not typed three ways.
 */
export const AFFILIATE_TYPES = ['DEALER', 'SELLER'] as const;

export type AffiliateType = (typeof AFFILIATE_TYPES)[number];

export const affiliateTypeLabels: Record<AffiliateType, string> = {
  DEALER: 'Agencia (distribuidor)',
  SELLER: 'Vendedor',
};

export const isAffiliateType = (value: string): value is AffiliateType =>
  (AFFILIATE_TYPES as readonly string[]).includes(value);

/** A type as the console names it; one given through the API outside the list, as it was given. */
export const affiliateTypeLabel = (value: string): string =>
  isAffiliateType(value) ? affiliateTypeLabels[value] : value;
