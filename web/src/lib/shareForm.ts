/**
 * The rules of the share and transfer dialogs and of a share's edit, as the server checks them
 * (spec seed 001 section 5: the person named 2-20 characters; an end time in the future or none).
 */
import { SHARING_LIMITS } from '@/lib/api/sharing';

/** The quick choices of an end time, in days; null: never (until revoked). */
export const END_TIME_CHOICES = [1, 7, 30, null] as const;
export type EndTimeChoice = (typeof END_TIME_CHOICES)[number];

const length = (value: string) => [...value.trim()].length;

/** The person named, user name, phone or e-mail, is 2-20 characters once trimmed. */
export function accountFits(value: string): boolean {
  return length(value) >= SHARING_LIMITS.accountMin && length(value) <= SHARING_LIMITS.accountMax;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a datetime-local input shows it, in the browser's zone (minutes). */
export function toLocalInput(instant: Date): string {
  return `${instant.getFullYear()}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())}T${pad(instant.getHours())}:${pad(instant.getMinutes())}`;
}

/** The input's value `days` days from `now`; '' for never. */
export function endTimeIn(days: number | null, now: Date = new Date()): string {
  return days === null ? '' : toLocalInput(new Date(now.getTime() + days * 86_400_000));
}

/** The ISO-8601 instant the server takes for the input's value; null for none. */
export function endTimeInstant(value: string): string | null {
  if (!value.trim()) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** Empty (never) or a real moment after `now`. */
export function endTimeFits(value: string, now: Date = new Date()): boolean {
  if (!value.trim()) return true;
  const date = new Date(value);
  return !Number.isNaN(date.getTime()) && date.getTime() > now.getTime();
}
