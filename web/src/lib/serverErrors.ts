/**
 * How a refused call shows on a form: a 422's `errors` (already in the user's language) and
 * the business codes that concern one field go under that field; anything else is a message
 * for the whole form.
 */
import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { ApiError, CancelledError, NetworkError } from '@/lib/http/index';

/** Business codes of the account calls (src/core/shared/errors.py). */
export const BUSINESS = {
  badCredentials: 1001,
  disabled: 1002,
  wrongCode: 1003,
  wrongCaptcha: 1004,
  userExists: 1005,
  contactBound: 1006,
  codeTooSoon: 1007,
  contactAlreadySet: 1009,
  captchaRequired: 1014,
  accountProtected: 1015,
} as const;

export interface SortedError<F extends string> {
  /** Messages that belong under a field. */
  fields: Partial<Record<F, string>>;
  /** A message for the whole form, or null when every message went to a field (or none is due). */
  form: string | null;
}

/**
 * Sorts a failure into field and form messages. `byCode` names the field a business code is
 * about; `translate` words the failures that carry no server message (network, time-out).
 */
export function sortError<F extends string>(
  error: unknown,
  fields: readonly F[],
  byCode: Partial<Record<number, F>>,
  translate: (key: string) => string,
): SortedError<F> {
  if (error instanceof CancelledError) return { fields: {}, form: null };
  if (error instanceof NetworkError) {
    return { fields: {}, form: translate(error.reason === 'timeout' ? 'common:http.requestTimeout' : 'common:http.networkError') };
  }
  if (!(error instanceof ApiError)) return { fields: {}, form: translate('common:http.errorMessage') };

  const sorted: Partial<Record<F, string>> = {};
  const rest: string[] = [];
  for (const [name, messages] of Object.entries(error.errors ?? {})) {
    const text = messages.join(' ');
    if ((fields as readonly string[]).includes(name)) sorted[name as F] = text;
    else rest.push(text);
  }
  const field = byCode[error.code];
  if (field && !sorted[field]) sorted[field] = error.message;
  const placed = Object.keys(sorted).length > 0;
  const form = rest.length > 0 ? rest.join(' ') : placed ? null : error.message;
  return { fields: sorted, form };
}

/** Puts sorted field messages on a react-hook-form form; returns the form-level message. */
export function showError<V extends FieldValues, F extends FieldPath<V> & string>(
  error: unknown,
  setError: UseFormSetError<V>,
  fields: readonly F[],
  byCode: Partial<Record<number, F>>,
  translate: (key: string) => string,
): string | null {
  const sorted = sortError(error, fields, byCode, translate);
  for (const name of fields) {
    const message = sorted.fields[name];
    if (message) setError(name, { type: 'server', message }, { shouldFocus: true });
  }
  return sorted.form;
}

/** The seconds a 1007 refusal asks to wait (the number in its message), if it names one. */
export function waitSecondsOf(error: unknown, limit: number): number | null {
  if (!(error instanceof ApiError) || error.code !== BUSINESS.codeTooSoon) return null;
  const seconds = Number(/\d+/.exec(error.message)?.[0]);
  return Number.isInteger(seconds) && seconds > 0 && seconds <= limit ? seconds : null;
}
