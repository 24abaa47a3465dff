import { describe, expect, it } from 'vitest';
import { changeOf, deviceEditSchema, editValues } from './schemas';
import { detail } from '@/test/devices';

/** Messages come back as their keys, so a test can say which rule spoke. */
const t = (key: string) => key;
const valid = { deviceName: 'Cold room A', remark: '', displayPrecision: '1', temperatureUnit: 'C', countryCode: '86' };

function problems(values: Record<string, string>, countryCodeEditable = false): Record<string, string> {
  const result = deviceEditSchema(t, countryCodeEditable).safeParse(values);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
}

describe('the device edit form', () => {
  it('takes a valid change, the name trimmed', () => {
    const result = deviceEditSchema(t, false).parse({ ...valid, deviceName: '  Dock  ' });
    expect(result.deviceName).toBe('Dock');
  });

  it('needs a name of 1 to 50 characters, counted as the server counts them', () => {
    expect(problems({ ...valid, deviceName: '   ' })).toEqual({ deviceName: 'rule.nameRequired' });
    expect(problems({ ...valid, deviceName: 'x'.repeat(51) })).toEqual({ deviceName: 'rule.nameTooLong' });
    expect(problems({ ...valid, deviceName: '🧊'.repeat(50) })).toEqual({}); // 50 code points, 100 UTF-16 units
  });

  it('takes a remark of up to 120 characters', () => {
    expect(problems({ ...valid, remark: 'r'.repeat(120) })).toEqual({});
    expect(problems({ ...valid, remark: 'r'.repeat(121) })).toEqual({ remark: 'rule.remarkTooLong' });
  });

  it('takes 0 to 4 decimals and C or F', () => {
    expect(problems({ ...valid, displayPrecision: '5' })).toEqual({ displayPrecision: 'rule.precision' });
    expect(problems({ ...valid, temperatureUnit: 'K' })).toEqual({ temperatureUnit: 'rule.unit' });
  });

  it('checks the country code only where the edition lets it change', () => {
    expect(problems({ ...valid, countryCode: '12345' }, false)).toEqual({});
    expect(problems({ ...valid, countryCode: '12345' }, true)).toEqual({ countryCode: 'rule.countryCode' });
    expect(problems({ ...valid, countryCode: '44' }, true)).toEqual({});
  });

  it('starts from the device and sends the update body', () => {
    const device = detail({ remark: null, displayPrecision: 2, temperatureUnit: 'F' });
    expect(editValues(device)).toEqual({
      deviceName: 'Cold room A logger',
      remark: '',
      displayPrecision: '2',
      temperatureUnit: 'F',
      countryCode: '86',
    });
    const values = deviceEditSchema(t, false).parse({ ...valid, remark: 'By the dock door' });
    expect(changeOf(1, values, false)).toEqual({
      deviceId: 1,
      deviceName: 'Cold room A',
      remark: 'By the dock door',
      displayPrecision: 1,
      temperatureUnit: 'C',
    });
    expect(changeOf(1, values, true)).toHaveProperty('countryCode', '86');
  });
});
