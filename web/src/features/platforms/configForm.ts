/**
 * The form of a camp's provider configuration, generated from the fields the server sends: what
 * the form starts with, what it checks before sending, what it sends, and where a refusal shows.
 */
import type { TFunction } from 'i18next';
import { z } from 'zod';
import { ApiError } from '@/lib/http/index';
import { sortError, type SortedError } from '@/lib/serverErrors';
import type { ConfigField } from './api/payConfig';

/** As typed, by field name; a secret's input starts empty (empty: keep the stored one). */
export type ConfigValues = Record<string, string>;

export function initialValues(fields: readonly ConfigField[]): ConfigValues {
  return Object.fromEntries(fields.map((field) => [field.name, field.secret ? '' : field.value ?? '']));
}

/** A required field must be filled, except a secret already stored (left empty it is kept). */
export const mustFill = (field: ConfigField) => field.required && !(field.secret && field.set === true);

export function configSchema(fields: readonly ConfigField[], t: TFunction) {
  return z.object(Object.fromEntries(fields.map((field) => [
    field.name,
    mustFill(field) ? z.string().trim().min(1, t('platforms:form.required')) : z.string(),
  ])));
}

/**
 * What update takes: every plain field (an optional one sent empty is cleared), and only the
 * secrets typed anew (one left out keeps the stored one). Ends of lines and spaces around a value
 * are never part of a key.
 */
export function valuesToSend(fields: readonly ConfigField[], values: ConfigValues): ConfigValues {
  const sent: ConfigValues = {};
  for (const field of fields) {
    const value = (values[field.name] ?? '').trim();
    if (!field.secret || value !== '') sent[field.name] = value;
  }
  return sent;
}

const VALUES = 'values.';

/** A 422's errors by field name: `values.appId` (or `{ values: { appId } }`) is `appId`'s. */
function byField(errors: Record<string, unknown>, prefix = ''): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(errors)) {
    const path = prefix + key;
    if (Array.isArray(messages)) {
      found[path.startsWith(VALUES) ? path.slice(VALUES.length) : path] = messages.map(String);
    } else if (messages !== null && typeof messages === 'object') {
      Object.assign(found, byField(messages as Record<string, unknown>, `${path}.`));
    }
  }
  return found;
}

/** A refusal sorted: the messages about a field under that field, the rest for the whole form. */
export function sortRefusal(error: unknown, fields: readonly ConfigField[], t: TFunction): SortedError<string> {
  const names = fields.map((field) => field.name);
  const named = error instanceof ApiError && error.errors
    ? new ApiError(error.status, error.code, error.message, byField(error.errors), error.data)
    : error;
  return sortError(named, names, {}, (key) => t(key));
}
