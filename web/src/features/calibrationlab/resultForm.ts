/**
 * A device's calibration results (the content of its certificate, ISO/IEC 17025 7.8), checked as
 * the server checks them (src/core/calibration/rules.py) in the user's language, and turned into
 * the body of ResultInfo/insert, update and correct. Numbers stay text all the way: 0.1 is sent
 * as "0.1", and a point's error is worked out on the digits, never on floats.
 */
import type { TFunction } from 'i18next';
import { z } from 'zod';
import {
  CALIBRATION_LIMITS as L,
  certificateContentSchema,
  DECISION_RULES,
  UNITS,
  type ContentInput,
  type LabApplication,
} from '@/lib/api/calibrationLab';
import { hasRefusedCharacters } from '@/lib/refusedCharacters';

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A number as typed: its sign, digits and scale (decimals), or null when it is not one. */
function digits(text: string): { value: bigint; scale: number } | null {
  const clean = text.trim();
  if (!NUMBER.test(clean)) return null;
  const negative = clean.startsWith('-');
  const [whole = '', fraction = ''] = clean.replace(/^[+-]/, '').split('.');
  const value = BigInt(`${whole || '0'}${fraction}`);
  return { value: negative ? -value : value, scale: fraction.length };
}

function compare(text: string, bound: number): number | null {
  const found = digits(text);
  if (!found) return null;
  const scaled = BigInt(Math.round(bound)) * 10n ** BigInt(found.scale);
  return found.value === scaled ? 0 : found.value > scaled ? 1 : -1;
}

/** reading - reference, exactly as the server computes it; null while either is not a number. */
export function pointError(reading: string, reference: string): string | null {
  const a = digits(reading);
  const b = digits(reference);
  if (!a || !b) return null;
  const scale = Math.max(a.scale, b.scale);
  const diff = a.value * 10n ** BigInt(scale - a.scale) - b.value * 10n ** BigInt(scale - b.scale);
  const sign = diff < 0n ? '-' : '';
  const text = (diff < 0n ? -diff : diff).toString().padStart(scale + 1, '0');
  return scale === 0 ? `${sign}${text}` : `${sign}${text.slice(0, -scale)}.${text.slice(-scale)}`;
}

/** The local calendar day as YYYY-MM-DD. */
export function today(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

function validDay(text: string): boolean {
  if (!DAY.test(text)) return false;
  const [year, month, day] = text.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 2000 && year <= 2100 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export function resultFormSchema(t: TFunction, now: Date = new Date()) {
  const text = (max: number, required = true) => z.string()
    .refine((v) => !required || v.trim().length > 0, t('error.required'))
    .refine((v) => [...v.trim()].length <= max, t('error.tooLong', { max }))
    .refine((v) => !hasRefusedCharacters(v.replace(/\n/g, ' ')), t('error.characters'));
  const number = (options: { positive?: boolean; required?: boolean } = {}) => z.string()
    .refine((v) => options.required === false || v.trim().length > 0, t('error.required'))
    .refine((v) => v.trim() === '' || digits(v) !== null, t('error.number'))
    .refine((v) => {
      const found = digits(v);
      return !found || (compare(v, L.magnitude)! <= 0 && compare(v, -L.magnitude)! >= 0);
    }, t('error.range', { max: L.magnitude }))
    .refine((v) => (digits(v)?.scale ?? 0) <= L.decimals, t('error.decimals', { max: L.decimals }))
    .refine((v) => !options.positive || v.trim() === '' || compare(v, 0) === 1, t('error.positive'));
  const point = z.object({
    reference: number(),
    reading: number(),
    uncertainty: number({ positive: true }),
    unit: z.enum(UNITS),
    tolerance: number({ positive: true, required: false }),
  });
  const day = z.string()
    .refine((v) => v.trim().length > 0, t('error.required'))
    .refine((v) => v.trim() === '' || validDay(v.trim()), t('error.date'))
    .refine((v) => !validDay(v.trim()) || v.trim() <= today(now), t('error.future'));
  const within = (low: number, high: number, message: string) => number()
    .refine((v) => digits(v) === null || (compare(v, low)! >= 0 && compare(v, high)! <= 0), message);

  return z.object({
    labName: text(L.name),
    labAddress: text(L.address, false),
    traceability: text(L.statement, false),
    customerName: text(L.name),
    customerAddress: text(L.address, false),
    itemType: text(L.typeModelSerial),
    itemModel: text(L.typeModelSerial),
    itemSerial: text(L.typeModelSerial),
    conditionOnReceipt: text(L.statement),
    receivedOn: day,
    calibratedOn: day,
    method: text(L.statement),
    temperature: within(L.labTemperature[0], L.labTemperature[1], t('error.labTemperature')),
    humidity: within(L.humidity[0], L.humidity[1], t('error.humidity')),
    decisionRule: z.enum(DECISION_RULES),
    asFound: z.array(point).min(1, t('error.points', { max: L.points })).max(L.points, t('error.points', { max: L.points })),
    /** The device was adjusted: the results after it (as left) are given too. */
    adjusted: z.boolean(),
    asLeft: z.array(point).max(L.points, t('error.points', { max: L.points })),
    authorisedName: text(L.signatory),
    authorisedRole: text(L.signatory),
    remarks: text(L.remarks, false),
  }).superRefine((form, ctx) => {
    if (validDay(form.receivedOn) && validDay(form.calibratedOn) && form.receivedOn > form.calibratedOn) {
      ctx.addIssue({ code: 'custom', path: ['receivedOn'], message: t('error.receivedAfter') });
    }
    if (form.adjusted && form.asLeft.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['asLeft'], message: t('error.asLeftNeeded') });
    }
  });
}
export type ResultForm = z.infer<ReturnType<typeof resultFormSchema>>;
export type PointForm = ResultForm['asFound'][number];

export const emptyPoint = (unit: PointForm['unit'] = '°C'): PointForm =>
  ({ reference: '', reading: '', uncertainty: '', unit, tolerance: '' });

const pointInput = (p: PointForm) => ({
  reference: p.reference.trim(), reading: p.reading.trim(), uncertainty: p.uncertainty.trim(), unit: p.unit,
  ...(p.tolerance.trim() ? { tolerance: p.tolerance.trim() } : {}),
});

/** The body's content fields of a checked form. */
export function contentOf(form: ResultForm): ContentInput {
  return {
    labName: form.labName.trim(), labAddress: form.labAddress.trim() || null,
    traceability: form.traceability.trim() || null, customerName: form.customerName.trim(),
    customerAddress: form.customerAddress.trim() || null,
    itemType: form.itemType.trim(), itemModel: form.itemModel.trim(), itemSerial: form.itemSerial.trim(),
    conditionOnReceipt: form.conditionOnReceipt.trim(), receivedOn: form.receivedOn.trim(),
    calibratedOn: form.calibratedOn.trim(), method: form.method.trim(),
    environment: { temperature: form.temperature.trim(), humidity: form.humidity.trim() },
    decisionRule: form.decisionRule,
    asFound: form.asFound.map(pointInput),
    asLeft: form.adjusted ? form.asLeft.map(pointInput) : [],
    authorisedBy: { name: form.authorisedName.trim(), role: form.authorisedRole.trim() },
    remarks: form.remarks.trim() || null,
  };
}

const unitOf = (unit: string): PointForm['unit'] => ((UNITS as readonly string[]).includes(unit) ? unit as PointForm['unit'] : '°C');

/** A stored certificate's content as the form edits it (a draft changed, a correction begun). */
export function formOfContent(raw: unknown): ResultForm | null {
  const parsed = certificateContentSchema.safeParse(raw);
  if (!parsed.success) return null;
  const c = parsed.data;
  const points = (list: typeof c.asFound) => list.map((p) => ({
    reference: p.reference, reading: p.reading, uncertainty: p.uncertainty, unit: unitOf(p.unit), tolerance: p.tolerance ?? '',
  }));
  return {
    labName: c.labName, labAddress: c.labAddress ?? '', traceability: c.traceability ?? '', customerName: c.customerName, customerAddress: c.customerAddress ?? '', itemType: c.itemType,
    itemModel: c.itemModel, itemSerial: c.itemSerial, conditionOnReceipt: c.conditionOnReceipt, receivedOn: c.receivedOn,
    calibratedOn: c.calibratedOn, method: c.method, temperature: c.environment.temperature,
    humidity: c.environment.humidity, decisionRule: c.decisionRule === 'guarded' ? 'guarded' : 'simple',
    asFound: points(c.asFound), adjusted: c.asLeft.length > 0, asLeft: points(c.asLeft),
    authorisedName: c.authorisedBy.name, authorisedRole: c.authorisedBy.role, remarks: c.remarks ?? '',
  };
}

/** A new device's form: what the application already says (customer, model, serial), today's dates. */
export function newResultForm(application: LabApplication, lineIndex: number, labName: string, now: Date = new Date()): ResultForm {
  const line = application.devices.find((d) => d.index === lineIndex);
  return {
    labName, labAddress: '', traceability: '', customerName: application.details?.customerName ?? '',
    customerAddress: application.details?.customerAddress ?? '', itemType: '', itemModel: line?.model ?? '',
    itemSerial: line?.serial ?? '', conditionOnReceipt: '', receivedOn: '', calibratedOn: today(now), method: '',
    temperature: '', humidity: '', decisionRule: 'simple', asFound: [emptyPoint()], adjusted: false, asLeft: [],
    authorisedName: '', authorisedRole: '', remarks: '',
  };
}

/** Form fields the server names by another path (the API's name of each field -> the form's). */
export function formPath(serverPath: string): string {
  return serverPath
    .replace(/^environment\./, '')
    .replace(/^authorisedBy\.name$/, 'authorisedName')
    .replace(/^authorisedBy\.role$/, 'authorisedRole')
    .replace(/\[(\d+)\]/g, '.$1');
}
