import { describe, expect, it } from 'vitest';
import {
  clampPrecision,
  formatInstant,
  formatDays,
  formatInZone,
  formatNumber,
  formatValue,
  fromUnit,
  NO_VALUE,
  probeValue,
  toUnit,
  unitSymbol,
} from './units';

describe('units', () => {
  it('converts Celsius to Fahrenheit and back', () => {
    expect([toUnit(0, 'F'), toUnit(100, 'F'), toUnit(-40, 'F'), toUnit(3.8, 'C')]).toEqual([32, 212, -40, 3.8]);
    expect(fromUnit(212, 'F')).toBe(100);
    expect(fromUnit(5, 'C')).toBe(5);
  });

  it('names a probe\'s unit: °C or °F as the device shows it, humidity in % RH', () => {
    expect([unitSymbol('t'), unitSymbol('t', 'F'), unitSymbol('h', 'F'), unitSymbol('x', 'F')]).toEqual(['°C', '°F', '%RH', '']);
  });

  it('converts temperatures only', () => {
    expect(probeValue('t', 8, 'F')).toBe(46.4);
    expect(probeValue('h', 81, 'F')).toBe(81);
    expect(probeValue('t', null, 'F')).toBeNull();
  });
});

describe('numbers and values', () => {
  it('shows the device\'s decimals, 0 to 4', () => {
    expect(formatNumber(3.14159, 0)).toBe('3');
    expect(formatNumber(3.14159, 2)).toBe('3.14');
    expect(formatNumber(3.14159, 4)).toBe('3.1416');
    expect(formatNumber(3.14159, 9)).toBe('3.1416');
    expect(formatNumber(3.14159, -1)).toBe('3');
    expect([-1, 0, 2.4, 4, 9, Number.NaN].map(clampPrecision)).toEqual([0, 0, 2, 4, 4, 1]);
  });

  it('never writes minus zero, and a dash for nothing', () => {
    expect(formatNumber(-0.04, 1)).toBe('0.0');
    expect(formatNumber(-0.4, 0)).toBe('0');
    expect(formatNumber(-0.06, 1)).toBe('-0.1');
    expect(formatNumber(null, 1)).toBe(NO_VALUE);
    expect(formatNumber(Number.NaN, 1)).toBe(NO_VALUE);
  });

  it('shows a value with its probe\'s unit, one decimal unless told, never -0.0', () => {
    expect(formatValue('t', 9.25)).toBe('9.3 °C');
    expect(formatValue('t', -0.04)).toBe('0.0 °C');
    expect(formatValue('t', -18)).toBe('-18.0 °C');
    expect(formatValue('h', 81)).toBe('81.0 %RH');
    expect(formatValue('x', 1)).toBe('1.0');
    expect(formatValue('t', null)).toBe(NO_VALUE);
    expect(formatValue('t', Number.NaN)).toBe(NO_VALUE);
  });

  it('writes a value in the device\'s unit and decimals, humidity as it is', () => {
    expect(formatValue('t', 3.8, 'C', 1)).toBe('3.8 °C');
    expect(formatValue('t', 3.8, 'F', 1)).toBe('38.8 °F');
    expect(formatValue('t', 8, 'F', 1)).toBe('46.4 °F');
    expect(formatValue('t', 11.7, 'F', 2)).toBe('53.06 °F');
    expect(formatValue('t', -17.8, 'F', 1)).toBe('0.0 °F'); // -0.04 °F, never "-0.0"
    expect(formatValue('h', 75.34, 'F', 1)).toBe('75.3 %RH');
    expect(formatValue('h', 81.25, 'F', 2)).toBe('81.25 %RH');
    expect(formatValue('t', 9.25, 'C', 0)).toBe('9 °C');
    expect(formatValue('t', 9.25, 'C', 4)).toBe('9.2500 °C');
  });
});

describe('instants', () => {
  const iso = '2026-05-01T08:09:10+00:00';
  const options = { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } as const;

  it('writes instants in the user\'s language, 24-hour clock', () => {
    expect(formatInstant(iso, 'en-US')).toBe(new Intl.DateTimeFormat('en-US', { ...options, second: '2-digit' }).format(new Date(iso)));
    expect(formatInstant(iso, 'zh-CN')).toMatch(/^2026\/05\/01 \d\d:09:10$/);
    expect(formatInstant(iso, 'en-US', false)).toBe(new Intl.DateTimeFormat('en-US', options).format(new Date(iso)));
  });

  it('never writes midnight as 24', () => {
    const midnight = new Date(2026, 4, 1, 0, 5, 0).toISOString();
    expect(formatInstant(midnight, 'en-US')).toMatch(/ 00:05:00$/);
  });

  it('draws a dash for no instant or an unreadable one', () => {
    expect(formatInstant(null, 'en-US')).toBe(NO_VALUE);
    expect(formatInstant('not a date', 'en-US')).toBe(NO_VALUE);
  });
});

describe('formatInZone', () => {
  it("writes a signature's time in the signer's zone, with its offset and name, whatever the reader's zone", () => {
    const text = formatInZone('2026-05-01T07:00:00Z', 'Europe/Berlin', 'en-GB');
    expect(text).toBe('01/05/2026, 09:00:00 GMT+2 (Europe/Berlin)');
    expect(formatInZone('2026-05-01T07:00:00Z', 'Asia/Shanghai', 'en-GB')).toMatch(/15:00:00 GMT\+8 \(Asia\/Shanghai\)$/);
  });

  it('shows the local time the server wrote when the browser does not know the zone', () => {
    expect(formatInZone('2026-05-01T07:00:00Z', 'Mars/Olympus', 'en-GB', '2026-05-01T09:00:00+02:00'))
      .toBe('2026-05-01 09:00:00+02:00 (Mars/Olympus)');
  });
});

describe('formatDays', () => {
  it('names the first and the last day of a period that ends at the next midnight, in any browser zone', () => {
    expect(formatDays('2026-04-01T00:00:00+08:00', '2026-05-01T00:00:00+08:00', 'en-GB')).toBe('01/04/2026 – 30/04/2026');
    expect(formatDays('2026-04-01T00:00:00-05:00', '2026-04-15T12:00:00-05:00', 'en-GB')).toBe('01/04/2026 – 15/04/2026');
    expect(formatDays('nonsense', '2026-04-15', 'en-GB')).toBe(NO_VALUE);
  });
});
