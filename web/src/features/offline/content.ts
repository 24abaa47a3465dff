/** A purchase's content in words: the level and its service time, SMS and voice counts. */
import type { TFunction } from 'i18next';
import type { Purchase } from './api/offline';

type Content = Pick<Purchase, 'levelName' | 'timeLength' | 'smsCount' | 'voiceCount'>;

/** Months of service as the operator reads them; 1200 months and more is lifelong. */
export const LIFELONG_MONTHS = 1200;
export function serviceTime(t: TFunction, months: number): string {
  return months >= LIFELONG_MONTHS ? t('offline:lifelong') : t('offline:months', { count: months });
}

export function contentText(t: TFunction, purchase: Content): string {
  const parts: string[] = [];
  if (purchase.levelName !== null || purchase.timeLength > 0) {
    parts.push([purchase.levelName, purchase.timeLength > 0 ? serviceTime(t, purchase.timeLength) : null].filter(Boolean).join(' · '));
  }
  if (purchase.smsCount > 0) parts.push(t('offline:sms', { count: purchase.smsCount }));
  if (purchase.voiceCount > 0) parts.push(t('offline:voice', { count: purchase.voiceCount }));
  return parts.join(' + ') || '—';
}
