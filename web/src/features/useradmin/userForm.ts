import type { TFunction } from 'i18next';
import { z } from 'zod';
import { editionConfig } from '@/lib/config';
import { emailProblem, phoneProblem } from '@/lib/contacts';
import { hasRefusedCharacters } from '@/lib/refusedCharacters';
import { TYPES_OF_ROLE, USER_LIMITS } from './api/users';

const USER_NAME = /^[A-Za-z\u4e00-\u9fa5][A-Za-z0-9_\u4e00-\u9fa5]*$/;
const PRODUCT_NAMES = ['coldchain', 'elitech'];
const length = (v: string) => [...v].length;

/** The message key of what is wrong with a new password, or null (the server also refuses common ones). */
export function passwordProblem(password: string, userName: string): string | null {
  if (length(password) < 8 || length(password) > 20) return 'rule.passwordLength';
  if (/\s/u.test(password)) return 'rule.passwordSpaces';
  if (![/\p{Nd}/u, /\p{Lu}/u, /\p{Ll}/u, /[^\p{L}\p{N}]/u].every((kind) => kind.test(password))) return 'rule.passwordWeak';
  const lower = password.toLowerCase();
  const name = userName.trim().toLowerCase();
  if (name.length >= 3 && (lower.includes(name) || lower.includes([...name].reverse().join('')))) return 'rule.passwordUserName';
  if (PRODUCT_NAMES.some((product) => lower.includes(product))) return 'rule.passwordProduct';
  return null;
}

/** The add and edit form, checked as the server checks it, in the operator's language. */
export function userFormSchema(t: TFunction, adding: boolean) {
  const edition = editionConfig().edition;
  return z.object({
    userName: z.string().trim(),
    accountPassword: z.string(),
    realName: z.string().trim()
      .refine((v) => length(v) <= USER_LIMITS.realName, t('rule.realName', { max: USER_LIMITS.realName }))
      .refine((v) => !hasRefusedCharacters(v), t('rule.characters')),
    company: z.string().trim()
      .refine((v) => v === '' || (length(v) >= USER_LIMITS.companyMin && length(v) <= USER_LIMITS.company),
        t('rule.company', { min: USER_LIMITS.companyMin, max: USER_LIMITS.company }))
      .refine((v) => !hasRefusedCharacters(v), t('rule.characters')),
    phone: z.string().trim().refine((v) => v === '' || phoneProblem(v, edition) === null,
      t(edition === 'domestic' ? 'rule.phoneDomestic' : 'rule.phoneInternational')),
    email: z.string().trim().refine((v) => v === '' || emailProblem(v) === null, t('rule.email')),
    roleCode: z.string().min(1, t('rule.role')),
    accountType: z.number(),
  }).superRefine((form, ctx) => {
    if (adding) {
      if (length(form.userName) < USER_LIMITS.nameMin || length(form.userName) > USER_LIMITS.name) {
        ctx.addIssue({ code: 'custom', path: ['userName'], message: t('rule.userNameLength', { min: USER_LIMITS.nameMin, max: USER_LIMITS.name }) });
      } else if (!USER_NAME.test(form.userName)) {
        ctx.addIssue({ code: 'custom', path: ['userName'], message: t('rule.userNameCharacters') });
      }
      const problem = form.accountPassword === '' ? null : passwordProblem(form.accountPassword, form.userName);
      if (problem) ctx.addIssue({ code: 'custom', path: ['accountPassword'], message: t(problem) });
    }
    if (form.roleCode && !(TYPES_OF_ROLE[form.roleCode] ?? []).includes(form.accountType)) {
      ctx.addIssue({ code: 'custom', path: ['accountType'], message: t('rule.typeRole') });
    }
  });
}
export type UserForm = z.infer<ReturnType<typeof userFormSchema>>;
