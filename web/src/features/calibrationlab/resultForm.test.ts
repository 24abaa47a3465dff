import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { setUpI18n } from '@/test/harness';
import { contentOf, emptyPoint, formOfContent, pointError, resultFormSchema, type ResultForm } from './resultForm';

beforeAll(setUpI18n);

const NOW = new Date(2026, 10, 27, 12, 0);
const point = (reference: string, reading: string, extra: Partial<ResultForm['asFound'][number]> = {}) =>
  ({ ...emptyPoint(), reference, reading, uncertainty: '0.1', ...extra });

function valid(change: Partial<ResultForm> = {}): ResultForm {
  return {
    labName: 'Coldchain Calibration Lab', labAddress: '', traceability: '', customerName: "Alice's Pharmacy",
    customerAddress: '', itemType: 'Data logger',
    itemModel: 'RCW-360', itemSerial: 'RCW360A0000001', conditionOnReceipt: 'Intact', receivedOn: '2026-11-20',
    calibratedOn: '2026-11-27', method: 'CC-CAL-07', temperature: '21.5', humidity: '45', decisionRule: 'simple',
    asFound: [point('-20', '-19.6', { tolerance: '0.5' })], adjusted: false, asLeft: [], authorisedName: 'Wang Lei',
    authorisedRole: 'Technical manager', remarks: '', ...change,
  };
}

/** The form's messages by field path, as the resolver would place them. */
function problems(form: ResultForm): Record<string, string> {
  const parsed = resultFormSchema(i18n.getFixedT(null, 'calibrationlab') as never, NOW).safeParse(form);
  return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('the results form', () => {
  it('takes a complete certificate', () => {
    expect(problems(valid())).toEqual({});
  });

  it('works out an error on the digits, as the server does', () => {
    expect(pointError('0.3', '0.1')).toBe('0.2');
    expect(pointError('-19.6', '-20')).toBe('0.4');
    expect(pointError('4.98', '5')).toBe('-0.02');
    expect(pointError('1', '1.000001')).toBe('-0.000001');
    expect(pointError('x', '1')).toBeNull();
  });

  it('holds measured values to the server bounds', () => {
    const at = (p: Partial<ResultForm['asFound'][number]>) => problems(valid({ asFound: [{ ...point('1', '1'), ...p }] }));
    expect(at({ reading: '' })['asFound.0.reading']).toBe('This field is required');
    expect(at({ reading: '1,5' })['asFound.0.reading']).toBe('Enter a number');
    expect(at({ reading: '1000000.1' })['asFound.0.reading']).toBe('A value is between -1000000 and 1000000');
    expect(at({ reading: '1000000' })).toEqual({});
    expect(at({ reading: '0.1234567' })['asFound.0.reading']).toBe('At most 6 decimals');
    expect(at({ uncertainty: '0' })['asFound.0.uncertainty']).toBe('The value must be above 0');
    expect(at({ tolerance: '' })).toEqual({});
    expect(at({ tolerance: '-0.5' })['asFound.0.tolerance']).toBe('The value must be above 0');
  });

  it('keeps the environment and the dates within what a certificate may state', () => {
    expect(problems(valid({ temperature: '61' })).temperature).toBe('The lab temperature is between -10 and 60 °C');
    expect(problems(valid({ temperature: '-10' }))).toEqual({});
    expect(problems(valid({ humidity: '100.5' })).humidity).toBe('The relative humidity is between 0 and 100 %');
    expect(problems(valid({ receivedOn: '2026-11-28', calibratedOn: '2026-11-28' })).calibratedOn)
      .toBe('The date must not be in the future');
    expect(problems(valid({ receivedOn: '2026-11-26', calibratedOn: '2026-11-25' })).receivedOn)
      .toBe('The devices must be received before they are calibrated');
    expect(problems(valid({ calibratedOn: '2026-02-30' })).calibratedOn).toBe('Enter a date as YYYY-MM-DD between 2000 and 2100');
  });

  it('asks an adjusted device for its results as left, and sends them only then', () => {
    expect(problems(valid({ adjusted: true, asLeft: [] })).asLeft).toBe('An adjusted device needs its results as left');
    expect(problems(valid({ asFound: [] })).asFound).toBe('Give 1 to 50 measurement points');
    const adjusted = valid({ adjusted: true, asLeft: [point('-20', '-20.05')] });
    expect(problems(adjusted)).toEqual({});
    expect(contentOf(adjusted).asLeft).toEqual([{ reference: '-20', reading: '-20.05', uncertainty: '0.1', unit: '°C' }]);
    expect(contentOf({ ...adjusted, adjusted: false }).asLeft).toEqual([]);
    expect(contentOf(valid()).asFound).toEqual([{ reference: '-20', reading: '-19.6', uncertainty: '0.1', unit: '°C', tolerance: '0.5' }]);
  });

  it('refuses texts the server refuses', () => {
    expect(problems(valid({ method: ' ' })).method).toBe('This field is required');
    expect(problems(valid({ itemSerial: 'x'.repeat(51) })).itemSerial).toBe('At most 50 characters');
    expect(problems(valid({ authorisedName: 'Wang 🧪' })).authorisedName).toBe('Emoji and control characters are not allowed here');
  });

  it('reads a stored certificate back into the form', () => {
    const stored = { ...contentOf(valid({ adjusted: true, asLeft: [point('5', '5.02')] })),
      asFound: [{ reference: '-20', reading: '-19.6', uncertainty: '0.1', unit: '°C', tolerance: '0.5', error: '0.4' }],
      asLeft: [{ reference: '5', reading: '5.02', uncertainty: '0.1', unit: '°C', error: '0.02' }] };
    const form = formOfContent(stored);
    expect(form?.adjusted).toBe(true);
    expect(form?.asLeft[0]).toEqual({ reference: '5', reading: '5.02', uncertainty: '0.1', unit: '°C', tolerance: '' });
    expect(formOfContent({ labName: 'only' })).toBeNull();
  });

  it('sends the lab\'s address and the traceability statement when given, and reads them back', () => {
    const stated = valid({ labAddress: ' 88 Metrology Road ', traceability: 'Traceable to the SI through NIM China' });
    expect(problems(stated)).toEqual({});
    const content = contentOf(stated);
    expect([content.labAddress, content.traceability]).toEqual(['88 Metrology Road', 'Traceable to the SI through NIM China']);
    expect([contentOf(valid()).labAddress, contentOf(valid()).traceability]).toEqual([null, null]);
    const back = formOfContent({ ...content, asFound: [{ ...content.asFound[0]!, error: '0.4' }] });
    expect([back?.labAddress, back?.traceability]).toEqual(['88 Metrology Road', 'Traceable to the SI through NIM China']);
    expect(problems(valid({ traceability: 'x'.repeat(201) })).traceability).toBe('At most 200 characters');
  });
});
