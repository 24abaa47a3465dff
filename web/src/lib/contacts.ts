/**
 * How a phone number and an e-mail address are checked wherever one is typed (sign-in pages,
 * alarm recipients), mirroring the server's (core/accounts/rules.py): a phone per edition, an
 * e-mail of up to 200 characters. Each returns the message key (of the `auth` namespace) of what
 * is wrong, or null; a feature words it in its own namespace where it needs to.
 */
export type Edition = 'domestic' | 'international';

export const EMAIL_MAX = 200;

export const PHONE_PATTERNS: Readonly<Record<Edition, RegExp>> = {
  domestic: /^1[3-9]\d{9}$/,
  international: /^\d{5,15}$/,
};
const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** The message key of what is wrong with a phone number in this edition, or null. */
export function phoneProblem(phone: string, edition: Edition): string | null {
  if (phone === '') return 'rule.phoneRequired';
  if (!PHONE_PATTERNS[edition].test(phone)) {
    return edition === 'domestic' ? 'rule.phoneDomestic' : 'rule.phoneInternational';
  }
  return null;
}

/** The message key of what is wrong with an e-mail address, or null. */
export function emailProblem(email: string): string | null {
  if (email === '') return 'rule.emailRequired';
  if (email.length > EMAIL_MAX) return 'rule.emailTooLong';
  if (!EMAIL.test(email)) return 'rule.emailInvalid';
  return null;
}
