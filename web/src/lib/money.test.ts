import { describe, expect, it } from 'vitest';
import { centsText, formatCents, parseCents } from './money';

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

describe('parseCents', () => {
  it.each([
    ['49.50', 4950],
    ['49.5', 4950],
    ['49,50', 4950],
    [' 7 ', 700],
    ['0.29', 29], // 0.29 × 100 is 28.999999999999996
    ['1.13', 113], // 1.13 × 100 is 112.99999999999999
    ['0', 0],
  ])('%s is %i cents', (text, cents) => {
    expect(parseCents(text)).toBe(cents);
  });

  it.each(['49.555', '-1', '1e3', '', '.5', '1.', '12a', '1,000.00'])('%s is not an amount', (text) => {
    expect(parseCents(text)).toBeNull();
  });

  it('reads back what centsText writes', () => {
    for (const cents of [0, 5, 29, 113, 4950, 123456789]) expect(parseCents(centsText(cents))).toBe(cents);
    expect(centsText(4950)).toBe('49.50');
    expect(centsText(5)).toBe('0.05');
  });

  it.each([
    ['1980.00', 198000], ['1980', 198000], [' 1980.5 ', 198050], ['1980,05', 198005], ['0.01', 1],
    ['9999999999.99', 999999999999], ['0.29', 29], ['1.15', 115],
  ])('%s is %i cents, exactly', (text, cents) => {
    expect(parseCents(text)).toBe(cents);
  });

  it.each(['', '1.234', '-5', '1e3', '1,000.00', '12345678901', 'abc'])('%s is not an amount either', (text) => {
    expect(parseCents(text)).toBeNull();
  });

  it('takes at most the whole digits asked for', () => {
    expect(parseCents('1234567890', 9)).toBeNull();
    expect(parseCents('123456789', 9)).toBe(12345678900);
  });
});
