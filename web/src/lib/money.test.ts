import { describe, expect, it } from 'vitest';
import { formatCents } from './money';

describe('formatCents', () => {
  it.each([
    [1234567, 'CNY', 'en-US', '¥12,345.67'],
    [0, 'CNY', 'zh-CN', '¥0.00'],
    [0, 'USD', 'en-US', '$0.00'],
    [1990, 'USD', 'zh-TW', '$19.90'],
    [1234567, 'CNY', 'ru-RU', '12 345,67 ¥'],
    [5, 'USD', 'de-DE', '0,05 $'],
  ])('%i cents of %s in %s: %s', (cents, currency, language, shown) => {
    // Intl spaces with no-break spaces: compared as plain ones
    expect(formatCents(cents, currency, language).replace(/\s/g, ' ')).toBe(shown);
  });
});
