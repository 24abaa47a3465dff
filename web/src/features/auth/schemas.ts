/**
 * Form rules of the sign-in pages, mirroring the server's (core/accounts/rules.py and the
 * account schemas): user name, the newer password rule, phone per edition, e-mail, codes, and
 * the generic confirm-password rule (spec seed 000 section 5). Pure functions of `t`, so the
 * messages follow the chosen language and the rules can be tested without React.
 */
import { z } from 'zod';
import { emailProblem, phoneProblem, type Edition } from '@/lib/contacts';

// The contact rules are shared with the alarm recipients; the sign-in pages still import them from here.
export { EMAIL_MAX, emailProblem, PHONE_PATTERNS, phoneProblem, type Edition } from '@/lib/contacts';

/** The translator the schemas write their messages with (keys of the `auth` namespace). */
export type T = (key: string, options?: Record<string, unknown>) => string;
import type { Channel } from '@/lib/api/sendCode';

export type { Channel };

export const USER_NAME_MIN = 6;
export const USER_NAME_MAX = 50;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 20;
export const LOGIN_NAME_MAX = 200;
export const LOGIN_PASSWORD_MAX = 128;
export const CAPTCHA_MAX = 10;

const CJK = '\\u4e00-\\u9fa5';
const USER_NAME = new RegExp(`^[A-Za-z${CJK}][A-Za-z0-9_${CJK}]*$`);
const CODE = /^\d{4,8}$/;

/** Characters as the server counts them (code points, not UTF-16 units). */
const lengthOf = (value: string): number => [...value].length;

/** The message key of what is wrong with a user name, or null. */
export function userNameProblem(name: string): string | null {
  if (name === '') return 'rule.userNameRequired';
  if (lengthOf(name) < USER_NAME_MIN || lengthOf(name) > USER_NAME_MAX) return 'rule.userNameLength';
  if (!USER_NAME.test(name)) return 'rule.userNamePattern';
  return null;
}

/** Names a password may not hold (core/accounts/password_policy.py). */
export const PRODUCT_NAMES = ['coldchain', 'elitech'] as const;
const MIN_USER_NAME = 3;
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  '@': 'a', '4': 'a', '3': 'e', '1': 'i', '!': 'i', '0': 'o', $: 's', '5': 's', '7': 't', '+': 't',
};

/** A password as the server compares it: lower-cased, and with look-alike characters undone. */
function spellings(text: string): string[] {
  const lower = text.toLowerCase();
  return [lower, [...lower].map((ch) => LOOK_ALIKES[ch] ?? ch).join('')];
}

/**
 * The message key of what is wrong with a new password (8-20, digit, upper, lower, special; not
 * holding the user name, its reverse or the product's name), or null. The server also refuses
 * the most common passwords, from a list too large to ship to the browser.
 */
export function passwordProblem(password: string, userName = ''): string | null {
  if (password === '') return 'rule.passwordRequired';
  if (lengthOf(password) < PASSWORD_MIN || lengthOf(password) > PASSWORD_MAX) return 'rule.passwordLength';
  if (/\s/u.test(password)) return 'rule.passwordSpaces';
  const kinds = [/\p{Nd}/u, /\p{Lu}/u, /\p{Ll}/u, /[^\p{L}\p{N}]/u];
  if (!kinds.every((kind) => kind.test(password))) return 'rule.passwordWeak';
  const forms = spellings(password);
  const name = userName.trim().toLowerCase();
  if (lengthOf(name) >= MIN_USER_NAME) {
    const reversed = [...name].reverse().join('');
    if (forms.some((form) => form.includes(name) || form.includes(reversed))) return 'rule.passwordUserName';
  }
  if (forms.some((form) => PRODUCT_NAMES.some((product) => form.includes(product)))) return 'rule.passwordProduct';
  return null;
}

/** The message key of what is wrong with a code received by SMS or e-mail, or null. */
export function codeProblem(code: string): string | null {
  if (code === '') return 'rule.codeRequired';
  if (!CODE.test(code)) return 'rule.codeInvalid';
  return null;
}

/**
 * The generic rule: a confirmation is required once the password has content, and must equal
 * the password once whitespace is trimmed from both.
 */
export function confirmProblem(password: string, confirm: string): string | null {
  if (password === '') return null;
  if (confirm === '') return 'rule.confirmRequired';
  if (confirm.trim() !== password.trim()) return 'rule.confirmMismatch';
  return null;
}

function ruled(t: T, problem: (value: string) => string | null) {
  return z.string().superRefine((value, ctx) => {
    const key = problem(value);
    if (key) ctx.addIssue({ code: 'custom', message: t(key) });
  });
}

export const userNameField = (t: T) => z.string().trim().pipe(ruled(t, userNameProblem));
export const passwordField = (t: T) => ruled(t, (value) => passwordProblem(value));
export const phoneField = (t: T, edition: Edition) =>
  z.string().trim().pipe(ruled(t, (value) => phoneProblem(value, edition)));
export const emailField = (t: T) => z.string().trim().pipe(ruled(t, emailProblem));
export const codeField = (t: T) => z.string().trim().pipe(ruled(t, codeProblem));

/** Adds the confirm-password rule to a form holding `accountPassword` and `confirmPassword`. */
function withConfirmation<S extends z.ZodType<{ accountPassword: string; confirmPassword: string }>>(t: T, schema: S) {
  return schema.superRefine((values, ctx) => {
    const key = confirmProblem(values.accountPassword, values.confirmPassword);
    if (key) ctx.addIssue({ code: 'custom', message: t(key), path: ['confirmPassword'] });
  });
}

/** Adds the rule that the password may not hold the user name to the registration form. */
function withoutUserName<S extends z.ZodType<{ userName: string; accountPassword: string }>>(t: T, schema: S) {
  return schema.superRefine((values, ctx) => {
    if (passwordProblem(values.accountPassword, values.userName) === 'rule.passwordUserName') {
      ctx.addIssue({ code: 'custom', message: t('rule.passwordUserName'), path: ['accountPassword'] });
    }
  });
}

/** The login form; the captcha answer is required once the captcha is shown. */
export const loginSchema = (t: T, captcha = false) =>
  z.object({
    userName: z.string().trim().min(1, t('rule.loginNameRequired')).max(LOGIN_NAME_MAX, t('rule.loginNameTooLong')),
    accountPassword: z
      .string()
      .min(1, t('rule.passwordRequired'))
      .max(LOGIN_PASSWORD_MAX, t('rule.loginPasswordTooLong')),
    verifyCode: captcha
      ? z.string().trim().min(1, t('rule.captchaRequired')).max(CAPTCHA_MAX, t('rule.captchaInvalid'))
      : z.string(),
  });
export type LoginForm = z.output<ReturnType<typeof loginSchema>>;

/** Logging in with a one-time code: the name, the image code (to send it) and the code received. */
export const codeLoginSchema = (t: T) =>
  z.object({
    userName: z.string().trim().min(1, t('rule.loginNameRequired')).max(LOGIN_NAME_MAX, t('rule.loginNameTooLong')),
    verifyCode: z.string().trim().max(CAPTCHA_MAX, t('rule.captchaInvalid')),
    loginCode: codeField(t),
  });
export type CodeLoginForm = z.output<ReturnType<typeof codeLoginSchema>>;

type Text = z.ZodType<string, string>;

/** The contact field of a form: a phone number (per edition) or an e-mail address. */
const contactShape = (t: T, channel: Channel, edition: Edition): { phone: Text; email: Text } =>
  channel === 'phone' ? { phone: phoneField(t, edition), email: z.string() } : { phone: z.string(), email: emailField(t) };

/** Registration: user name, the edition's contact with its code, password and confirmation. */
export const registerSchema = (t: T, edition: Edition) =>
  withoutUserName(
    t,
    withConfirmation(
      t,
      z.object({
        userName: userNameField(t),
        ...contactShape(t, edition === 'domestic' ? 'phone' : 'email', edition),
        code: codeField(t),
        accountPassword: passwordField(t),
        confirmPassword: z.string(),
      }),
    ),
  );
export type RegisterForm = z.output<ReturnType<typeof registerSchema>>;

/** Forgot password: the chosen contact with its code, a new password and its confirmation. */
export const recoverSchema = (t: T, edition: Edition, channel: Channel) =>
  withConfirmation(
    t,
    z.object({
      ...contactShape(t, channel, edition),
      code: codeField(t),
      accountPassword: passwordField(t),
      confirmPassword: z.string(),
    }),
  );
export type RecoverForm = z.output<ReturnType<typeof recoverSchema>>;

/** Binding a phone number or an e-mail address to the signed-in account. */
export const bindSchema = (t: T, edition: Edition, channel: Channel) =>
  z.object({ ...contactShape(t, channel, edition), code: codeField(t) });
export type BindForm = z.output<ReturnType<typeof bindSchema>>;

/** The contact alone, checked before a code is sent to it. */
export const contactSchema = (t: T, edition: Edition, channel: Channel) =>
  channel === 'phone' ? phoneField(t, edition) : emailField(t);
