import { describe, expect, it } from 'vitest';
import { formatMoney, money } from './format';
import { countryCodeRule, durationParts, formatAmount, formatAmountIn, isLifelong, stockIntent } from './values';

describe('the recharge display rules', () => {
  it.each([
    [9990, 'domestic', '99'],
    [9990, 'international', '99.90'],
    [5, 'international', '0.05'],
    [0, 'domestic', '--'],
    ['9900', 'domestic', '--'],
    [Number.NaN, 'international', '--'],
    [-50, 'domestic', '0'],
  ] as const)('shows %s cents as %s on the %s console', (cents, edition, shown) => {
    expect(formatAmount(cents, edition)).toBe(shown);
  });

  it.each([
    [15900, 'CNY', '159'],
    [15920, 'CNY', '159'],
    [15920, 'USD', '159.20'],
    [500, 'EUR', '5.00'],
    [0, 'USD', '--'],
  ] as const)('shows %s cents in %s as %s, whatever the edition', (cents, currency, shown) => {
    expect(formatAmountIn(cents, currency)).toBe(shown);
  });

  it('writes an amount with the sign of its own currency', () => {
    expect(formatMoney(15900, 'CNY')).toBe('¥159');
    expect(formatMoney(1990, 'USD')).toBe('$19.90');
    expect(formatMoney(500, 'EUR')).toBe('EUR 5.00');
    expect(formatMoney(0, 'CNY')).toBe('--');
    expect(money(1990, 'international')).toBe(formatMoney(1990, 'USD'));
    expect(money(9900, 'domestic')).toBe(formatMoney(9900, 'CNY'));
  });

  it('splits durations and recognises lifelong service', () => {
    expect(durationParts(5)).toEqual({ years: 0, months: 5 });
    expect(durationParts(30)).toEqual({ years: 2, months: 6 });
    expect(durationParts(1200)).toBeNull();
    expect(isLifelong({ expiresAt: '2099-12-31' })).toBe(true);
    expect(isLifelong({ expiresAt: '2098-12-31' })).toBe(false);
    expect(isLifelong({ months: 1200 })).toBe(true);
  });

  it('colours counts', () => {
    expect([stockIntent(50), stockIntent(51)]).toEqual(['danger', 'success']);
  });

  it('fixes the domestic country code and locks a device’s own abroad', () => {
    expect(countryCodeRule('domestic', '1')).toEqual({ code: '86', locked: true });
    expect(countryCodeRule('international', '44')).toEqual({ code: '44', locked: true });
    expect(countryCodeRule('international', null)).toEqual({ code: '1', locked: false });
  });
});
