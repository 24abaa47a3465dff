/**
 * The alarm settings form of one probe, mirroring the server's rules (core/alarms/validation.py,
 * spec seed 001 section 5): rule name 1-100; limits within what the probe measures, at least one,
 * the upper above the lower; delay up to 7 days; graded times level1 < level2 < level3, level 3
 * only with level 2; up to 30 recipients, each on a level the rule has, named 1-50, with a phone
 * (per edition) or an e-mail, none twice. Temperature limits are typed in the device's unit and
 * sent in Celsius. Messages are keys of the `devices` namespace, written with `t`.
 */
import { z } from 'zod';
import type { AlarmRecipient, AlarmRule, AlarmRuleSettings } from './api/alarmRules';
import { emailProblem, phoneProblem, type Edition } from '@/lib/contacts';
import { fromUnit, toUnit, type TemperatureUnit } from '@/lib/units';
import type { T } from './schemas';

export const RULE_NAME_MAX = 100;
export const RECIPIENT_NAME_MAX = 50;
export const PHONE_MAX = 20;
export const EMAIL_MAX = 200;
export const MAX_RECIPIENTS = 30;
export const MAX_DELAY_MINUTES = 7 * 24 * 60;
export const MAX_LEVEL_MINUTES = 30 * 24 * 60;
export const LEVELS = ['1', '2', '3'] as const;
/** What each probe measures at all, as the server stores it (Celsius, % RH). */
export const SENSOR_RANGE: Readonly<Record<string, readonly [number, number]>> = { t: [-200, 200], h: [0, 100] };

const lengthOf = (value: string): number => [...value].length;
const NUMBER = /^[-+]?\d{1,6}(\.\d{1,6})?$/;
const WHOLE = /^\d{1,6}$/;

/** A typed number ("," taken as the decimal point), or null for an empty field, or NaN when it is not one. */
export function parseNumber(text: string): number | null {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return null;
  return NUMBER.test(trimmed) ? Number(trimmed) : NaN;
}

function parseWhole(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return WHOLE.test(trimmed) ? Number(trimmed) : NaN;
}

/** A limit as stored (Celsius or % RH) from one typed in the device's unit, without float noise. */
export function storedLimit(probe: string, typed: number, unit: TemperatureUnit): number {
  const value = probe === 't' ? fromUnit(typed, unit) : typed;
  return Math.round(value * 1e6) / 1e6;
}

/** A stored limit as the form shows it, in the device's unit (at most 4 decimals). */
export function shownLimit(probe: string, stored: number | null, unit: TemperatureUnit): string {
  if (stored === null) return '';
  const value = probe === 't' ? toUnit(stored, unit) : stored;
  return String(Math.round(value * 1e4) / 1e4);
}

/** The probe's sensor range in the device's unit, for the hints and messages. */
export function shownRange(probe: string, unit: TemperatureUnit): [string, string] {
  const [low, high] = SENSOR_RANGE[probe] ?? [-200, 200];
  return [shownLimit(probe, low, unit), shownLimit(probe, high, unit)];
}

const recipientForm = z.object({
  level: z.enum(LEVELS),
  name: z.string(),
  phone: z.string(),
  email: z.string(),
  voice: z.boolean(),
  /** '' for the device owner's. */
  language: z.string(),
});

export const ruleFormSchema = (t: T, probe: string, unit: TemperatureUnit, edition: Edition) => {
  const [low, high] = SENSOR_RANGE[probe] ?? [-200, 200];
  const [shownLow, shownHigh] = shownRange(probe, unit);
  return z
    .object({
      name: z.string(),
      enabled: z.boolean(),
      upperLimit: z.string(),
      lowerLimit: z.string(),
      delayMinutes: z.string(),
      level1Minutes: z.string(),
      level2Minutes: z.string(),
      level3Minutes: z.string(),
      recipients: z.array(recipientForm),
    })
    .superRefine((form, ctx) => {
      const problem = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
      const name = form.name.trim();
      if (name === '') problem(['name'], t('alarmRule.nameRequired'));
      else if (lengthOf(form.name) > RULE_NAME_MAX) problem(['name'], t('alarmRule.nameTooLong', { max: RULE_NAME_MAX }));

      const limits: Record<'upperLimit' | 'lowerLimit', number | null> = { upperLimit: null, lowerLimit: null };
      for (const field of ['upperLimit', 'lowerLimit'] as const) {
        const typed = parseNumber(form[field]);
        if (typed === null) continue;
        const stored = Number.isNaN(typed) ? NaN : storedLimit(probe, typed, unit);
        if (Number.isNaN(stored)) problem([field], t('alarmRule.number'));
        else if (stored < low || stored > high) problem([field], t('alarmRule.range', { min: shownLow, max: shownHigh }));
        else limits[field] = stored;
      }
      const blank = (text: string) => text.trim() === '';
      if (blank(form.upperLimit) && blank(form.lowerLimit)) problem(['upperLimit'], t('alarmRule.limitRequired'));
      if (limits.upperLimit !== null && limits.lowerLimit !== null && limits.upperLimit <= limits.lowerLimit) {
        problem(['upperLimit'], t('alarmRule.upperAboveLower'));
      }

      const delay = parseWhole(form.delayMinutes);
      if (delay === null || Number.isNaN(delay) || delay > MAX_DELAY_MINUTES) {
        problem(['delayMinutes'], t('alarmRule.minutes', { max: MAX_DELAY_MINUTES }));
      }
      const levels = gradedProblems(form, t, problem);
      recipientProblems(form.recipients, levels, t, edition, problem);
    });
};

type Problem = (path: (string | number)[], message: string) => void;
type RuleForm = z.input<ReturnType<typeof ruleFormSchema>>;
export type { RuleForm };
export type RecipientForm = z.input<typeof recipientForm>;

/** Checks level1 < level2 < level3 and returns how many levels the rule has. */
function gradedProblems(form: RuleForm, t: T, problem: Problem): number {
  const minutes = [form.level1Minutes, form.level2Minutes, form.level3Minutes].map(parseWhole);
  let fine = true;
  minutes.forEach((value, i) => {
    const missing = i === 0 && value === null;
    if (missing || (value !== null && (Number.isNaN(value) || value > MAX_LEVEL_MINUTES))) {
      problem([`level${i + 1}Minutes`], t('alarmRule.minutes', { max: MAX_LEVEL_MINUTES }));
      fine = false;
    }
  });
  const [first = null, second = null, third = null] = minutes;
  if (fine && second !== null && first !== null && second <= first) {
    problem(['level2Minutes'], t('alarmRule.graded'));
  }
  if (fine && third !== null && (second === null || third <= second)) {
    problem(['level3Minutes'], t('alarmRule.graded'));
  }
  return second === null ? 1 : third === null ? 2 : 3;
}

function recipientProblems(recipients: RecipientForm[], top: number, t: T, edition: Edition, problem: Problem): void {
  if (recipients.length > MAX_RECIPIENTS) {
    problem(['recipients'], t('alarmRule.tooMany', { max: MAX_RECIPIENTS }));
    return;
  }
  const phones = new Set<string>();
  const emails = new Set<string>();
  recipients.forEach((r, i) => {
    const at = (field: string) => ['recipients', i, field];
    if (Number(r.level) > top) problem(at('level'), t('alarmRule.recipientLevel'));
    const name = r.name.trim();
    if (name === '' || lengthOf(r.name) > RECIPIENT_NAME_MAX) {
      problem(at('name'), t('alarmRule.recipientName', { max: RECIPIENT_NAME_MAX }));
    }
    const phone = r.phone.trim();
    const email = r.email.trim();
    if (phone === '' && email === '') problem(at('phone'), t('alarmRule.contactRequired'));
    if (phone !== '') {
      const key = phoneProblem(phone, edition);
      if (key) problem(at('phone'), t(edition === 'domestic' ? 'alarmRule.phoneDomestic' : 'alarmRule.phoneInternational'));
      else if (phones.has(phone)) problem(at('phone'), t('alarmRule.phoneTwice'));
      phones.add(phone);
    } else if (r.voice) {
      problem(at('voice'), t('alarmRule.voiceNeedsPhone'));
    }
    if (email !== '') {
      if (emailProblem(email)) problem(at('email'), t('alarmRule.emailInvalid'));
      else if (emails.has(email.toLowerCase())) problem(at('email'), t('alarmRule.emailTwice'));
      emails.add(email.toLowerCase());
    }
  });
}

export const PROBE_NAME_KEYS: Readonly<Record<string, string>> = { t: 'probe.t', h: 'probe.h' };

/** The form's starting values: the rule as it is, or a fresh one named after the probe. */
export function ruleFormValues(rule: AlarmRule | undefined, probe: string, unit: TemperatureUnit, probeName: string): RuleForm {
  if (!rule) {
    return {
      name: probeName, enabled: true, upperLimit: '', lowerLimit: '', delayMinutes: '0',
      level1Minutes: '0', level2Minutes: '', level3Minutes: '', recipients: [],
    };
  }
  const minutes = (value: number | null) => (value === null ? '' : String(value));
  return {
    name: rule.name,
    enabled: rule.enabled,
    upperLimit: shownLimit(probe, rule.upperLimit, unit),
    lowerLimit: shownLimit(probe, rule.lowerLimit, unit),
    delayMinutes: String(Math.round(rule.delaySeconds / 60)),
    level1Minutes: String(rule.level1Minutes),
    level2Minutes: minutes(rule.level2Minutes),
    level3Minutes: minutes(rule.level3Minutes),
    recipients: rule.recipients.map((r) => ({
      level: String(r.level) as RecipientForm['level'],
      name: r.name,
      phone: r.phone ?? '',
      email: r.email ?? '',
      voice: r.voice,
      language: r.language ?? '',
    })),
  };
}

export const EMPTY_RECIPIENT: RecipientForm = { level: '1', name: '', phone: '', email: '', voice: false, language: '' };

/**
 * What is saved from valid form values. The delay is shown in whole minutes; one the form did not
 * change keeps its seconds (a rule set to 90 s through the API stays 90 s).
 */
export function ruleSettings(form: RuleForm, probe: string, unit: TemperatureUnit, rule?: AlarmRule): AlarmRuleSettings {
  const limit = (text: string) => {
    const typed = parseNumber(text);
    return typed === null ? null : storedLimit(probe, typed, unit);
  };
  const minutes = (text: string) => parseWhole(text);
  const delayMinutes = Number(form.delayMinutes.trim());
  const delayKept = rule !== undefined && delayMinutes === Math.round(rule.delaySeconds / 60);
  const recipients: AlarmRecipient[] = form.recipients.map((r) => ({
    level: Number(r.level),
    name: r.name.trim(),
    phone: r.phone.trim() || null,
    email: r.email.trim() || null,
    voice: r.phone.trim() !== '' && r.voice,
    language: r.language || null,
  }));
  return {
    name: form.name.trim(),
    upperLimit: limit(form.upperLimit),
    lowerLimit: limit(form.lowerLimit),
    delaySeconds: delayKept ? rule.delaySeconds : delayMinutes * 60,
    level1Minutes: minutes(form.level1Minutes) ?? 0,
    level2Minutes: minutes(form.level2Minutes),
    level3Minutes: minutes(form.level3Minutes),
    enabled: form.enabled,
    recipients,
  };
}
