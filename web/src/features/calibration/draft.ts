/**
 * The phone's application, filled over several pages (device, serve, customer, apply): kept in
 * sessionStorage between them, dropped once applied.
 */
import { EMPTY_FORM, type FormValues } from './form';

const KEY = 'jc__calibrationDraft';

export function readDraft(): FormValues {
  try {
    const stored = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Partial<FormValues> | null;
    return { ...EMPTY_FORM, ...(stored ?? {}) };
  } catch {
    return EMPTY_FORM;
  }
}

export function saveDraft(values: Partial<FormValues>): void {
  sessionStorage.setItem(KEY, JSON.stringify({ ...readDraft(), ...values }));
}

export function dropDraft(): void {
  sessionStorage.removeItem(KEY);
}
