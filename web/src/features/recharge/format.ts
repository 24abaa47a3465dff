/** How the recharge drawers write money, terms and activity times (the rules are in values.ts). */
import { centsText } from '@/lib/money';
import { NO_VALUE } from '@/lib/units';
import { currencySignOf, durationParts, editionCurrency, formatAmountIn, NOT_SHOWN, type Edition } from './values';

/**
 * An amount in its own currency with its sign ('¥159', '$19.90', 'EUR 5.00'); '--' alone when there
 * is none. An order is shown with this in the order's `currency`, whatever the edition now.
 */
export function formatMoney(cents: unknown, currency: string): string {
  const amount = formatAmountIn(cents, currency);
  return amount === NOT_SHOWN ? NOT_SHOWN : `${currencySignOf(currency)}${amount}`;
}

/**
 * An amount that need not be whole (what was refunded of an order: any part of it) as formatMoney
 * shows it, but with its cents even in a currency shown in whole units ('¥49.50', not '¥49').
 */
export function formatExactMoney(cents: number, currency: string): string {
  return cents % 100 === 0 ? formatMoney(cents, currency) : `${currencySignOf(currency)}${centsText(cents)}`;
}

/** An amount of the edition's currency, as formatMoney shows it (catalogue prices are in it). */
export function money(cents: unknown, edition: Edition): string {
  return formatMoney(cents, editionCurrency(edition));
}

/** A device's country calling code as dialled ('+1'); the no-value dash when it has none. */
export function dialCode(code: string | null | undefined): string {
  return code ? `+${code}` : NO_VALUE;
}

/** A translation function (any namespace's `t` with the keys below). */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * A term as words: months under a year, else years and the remaining months; lifelong from 1200
 * months. `t` is the recharge namespace's, prefixed `recharge`.
 */
export function durationText(t: Translate, months: number): string {
  const parts = durationParts(months);
  if (!parts) return t('duration.lifelong');
  const words: string[] = [];
  if (parts.years) words.push(t('duration.years', { count: parts.years }));
  if (parts.months || !parts.years) words.push(t('duration.months', { count: parts.months }));
  return words.join(' ');
}

/** An instant as `YYYY-MM-DD HH:mm` in the browser's time zone (activity validity). */
export function formatMinute(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * A discount badge as the reader's language says it: the server writes it in its edition's
 * notation ('8折', '7.5折' the share charged in tenths; '20% OFF' the share taken off), which only
 * a Chinese reader reads as meant. Chinese (`language` zh-*) gets the tenths, others read '20% off'
 * or '−20 %' (`recharge.discountBadge`); a badge of any other form is shown as it came. `t` is the
 * recharge namespace's, prefixed `recharge`.
 */
export function discountBadgeText(t: Translate, language: string, badge: string): string {
  const tenths = /^(\d+(?:\.\d+)?)折$/.exec(badge);
  const off = /^(\d+(?:\.\d+)?)% OFF$/i.exec(badge);
  const charged = tenths ? Number(tenths[1]) * 10 : off ? 100 - Number(off[1]) : null;
  if (charged === null) return badge;
  const rounded = (n: number) => Math.round(n * 100) / 100;
  return language.startsWith('zh') ? `${rounded(charged / 10)}折` : t('discountBadge', { off: rounded(100 - charged) });
}
