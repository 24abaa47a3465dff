import { describe, expect, it } from 'vitest';
import {
  alarmValue,
  clampPrecision,
  formatInstant,
  formatValue,
  handlingIntent,
  handlingKey,
  kindKey,
  lengthOf,
  levelIntent,
  levelOf,
  NO_VALUE,
  probeKey,
  toUnit,
  unitOf,
} from './values';

describe('alarm values', () => {
  it('shows a value with its probe’s unit and one decimal, never -0.0', () => {
    expect(formatValue('t', 9.25)).toBe('9.3 °C');
    expect(formatValue('t', -0.04)).toBe('0.0 °C');
    expect(formatValue('t', -18)).toBe('-18.0 °C');
    expect(formatValue('h', 81)).toBe('81.0 %RH');
    expect(formatValue('x', 1)).toBe('1.0');
    expect(formatValue('t', null)).toBe(NO_VALUE);
    expect(formatValue('t', Number.NaN)).toBe(NO_VALUE);
  });

  it('converts Celsius to Fahrenheit for a device that shows °F, humidity as it is', () => {
    expect([toUnit(0, 'F'), toUnit(100, 'F'), toUnit(-40, 'F'), toUnit(8, 'C')]).toEqual([32, 212, -40, 8]);
    expect([unitOf('t'), unitOf('t', 'F'), unitOf('h', 'F'), unitOf('x', 'F')]).toEqual(['°C', '°F', '%RH', '']);
    expect(formatValue('t', 8, 'F', 1)).toBe('46.4 °F');
    expect(formatValue('t', 11.7, 'F', 2)).toBe('53.06 °F');
    expect(formatValue('t', -17.8, 'F', 1)).toBe('0.0 °F'); // -0.04 °F, never "-0.0"
    expect(formatValue('h', 81.25, 'F', 2)).toBe('81.25 %RH');
  });

  it('shows the device’s decimals, 0 to 4', () => {
    expect(formatValue('t', 9.25, 'C', 0)).toBe('9 °C');
    expect(formatValue('t', 9.25, 'C', 2)).toBe('9.25 °C');
    expect(formatValue('t', 9.25, 'C', 4)).toBe('9.2500 °C');
    expect([-1, 0, 2.4, 4, 9, Number.NaN].map(clampPrecision)).toEqual([0, 0, 2, 4, 4, 1]);
  });

  it('reads an alarm’s values in its device’s unit and decimals', () => {
    const fridge = { probe: 't', temperatureUnit: 'F', displayPrecision: 2 } as const;
    expect([11.7, 8, 0.6].map((v) => alarmValue(fridge, v))).toEqual(['53.06 °F', '46.40 °F', '33.08 °F']);
    expect(alarmValue({ probe: 't', temperatureUnit: 'C', displayPrecision: 1 }, 11.7)).toBe('11.7 °C');
    expect(alarmValue(fridge, null)).toBe(NO_VALUE);
  });

  it('names probes, excursions and outcomes by translation key', () => {
    expect([probeKey('t'), probeKey('h'), probeKey('p')]).toEqual(['probe.t', 'probe.h', 'probe.other']);
    expect([kindKey(1), kindKey(2), kindKey(9)]).toEqual(['kind.above', 'kind.below', 'kind.other']);
    expect([1, 2, 3, null].map(handlingKey)).toEqual(['handled.approved', 'handled.refused', 'handled.deferred', 'handled.unknown']);
    expect([1, 2, 3, null].map(handlingIntent)).toEqual(['success', 'danger', 'warning', 'none']);
  });

  it('grades levels 0-3', () => {
    expect([-1, 0, 1, 2, 3, 7].map((level) => levelOf({ level }))).toEqual([0, 0, 1, 2, 3, 3]);
    expect([0, 1, 2, 3].map(levelIntent)).toEqual(['none', 'warning', 'danger', 'danger']);
  });

  it('writes instants in the user’s language', () => {
    const iso = '2026-05-01T08:09:10+00:00';
    const expected = new Intl.DateTimeFormat('en-US', {
      year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
    }).format(new Date(iso));
    expect(formatInstant(iso, 'en-US')).toBe(expected);
    expect(formatInstant(iso, 'zh-CN')).toMatch(/^2026\/05\/01 \d\d:09:10$/);
    expect(formatInstant(null, 'en-US')).toBe(NO_VALUE);
    expect(formatInstant('not a date', 'en-US')).toBe(NO_VALUE);
  });

  it('counts characters as the server does', () => {
    expect(lengthOf('冷链😀')).toBe(3);
  });
});
