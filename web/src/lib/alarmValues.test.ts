import { describe, expect, it } from 'vitest';
import { NO_VALUE } from '@/lib/units';
import { alarmValue, handlingIntent, handlingKey, kindKey, lengthOf, levelIntent, levelOf, probeKey } from './alarmValues';

describe('alarm values', () => {
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

  it('counts characters as the server does', () => {
    expect(lengthOf('冷链😀')).toBe(3);
  });
});
