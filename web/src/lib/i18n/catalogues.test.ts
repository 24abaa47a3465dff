/**
 * Every namespace speaks all seven languages alike: the same keys as en-US (plural forms aside),
 * each plural in every form the language's rules ask for, and no placeholder en-US does not fill.
 */
import { describe, expect, it } from 'vitest';
import { LANGUAGES, loadLanguage } from './index';

const resources = Object.fromEntries(await Promise.all(LANGUAGES.map(async (language) => [language, await loadLanguage(language)])));
const PLURAL = /_(zero|one|two|few|many|other)$/;

function flatten(node: unknown, prefix = '', out: Record<string, string> = {}): Record<string, string> {
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object') flatten(value, path, out);
    else out[path] = String(value);
  }
  return out;
}

const catalogue = (language: string, namespace: string) => flatten(resources[language]?.[namespace] ?? {});
const baseKeys = (strings: Record<string, string>) => [...new Set(Object.keys(strings).map((k) => k.replace(PLURAL, '')))].sort();
const placeholders = (text: string) => [...text.matchAll(/{{\s*([\w.]+)\s*}}/g)].map((m) => m[1]);
const NAMESPACES = Object.keys(resources['en-US'] ?? {}).sort();

/**
 * Values a catalogue may share with en-US on purpose: names of products, standards and
 * identifiers that no language translates, and words the language uses as they are. Anything else
 * equal to the English is an English string a user of that language would read.
 */
const SAME_IN_EVERY_LANGUAGE = new Set([
  'GUID', 'PLC', 'FDA 21 CFR', 'VIP', 'SMS', 'PayPal', 'Google Pay', 'WeChat Pay', 'Alipay', 'Stripe',
  'name@company.com', // an example address
  'Celsius (°C)', 'Fahrenheit (°F)',
  '{{count}} s', // the SI symbol of the second
  'CSV', 'Excel (XLSX)', 'PDF', // file formats
  'file failed', // the mobile calibration PDF's refusal, worded by spec 000 section 7 in every language
]);
const SAME_IN: Record<string, ReadonlySet<string>> = {
  // German uses these words as English does
  'de-DE': new Set([
    'Online', 'Offline', 'Alarm', 'Status', 'Service', 'Details', 'Normal', 'Port', 'Name', 'Standard', 'Premium',
    'System', 'Cockpit', 'Layout', 'Orange', 'Gold', 'Cyan', 'Indigo', 'OK', 'Version {{version}}', '(optional)',
    'Format', 'Export',
  ]),
  // Spanish words spelt as in English
  'es-ES': new Set(['Error', 'Total', 'Normal', 'Roles', 'Series', 'Premium', '30 min', 'min', 'Total {{kwh}} kWh', 'No']),
  // European Portuguese writes these as English does
  'pt-PT': new Set(['Online', 'Offline', 'E-mail', 'Total', 'Normal', 'Premium', 'OK', '30 min', 'min', 'Total {{kwh}} kWh']),
};
/** A value of nothing but placeholders, numbers and signs (`{{page}} / {{pages}}`) has no words to translate. */
const WORDLESS = (text: string) => !/\p{L}/u.test(text.replace(/{{\s*[\w.]+\s*}}/g, '').replace(/©/g, ''));

describe('the translation catalogues', () => {
  it('are found for every feature', () => {
    expect(NAMESPACES).toEqual(expect.arrayContaining(['common', 'app', 'auth', 'devices', 'dialogs', 'home', 'layout']));
  });

  describe.each(NAMESPACES)('%s', (namespace) => {
    const english = catalogue('en-US', namespace);

    it.each(LANGUAGES)('%s has every key of en-US and no other', (language) => {
      expect(resources[language]?.[namespace], `${namespace} has no ${language} catalogue`).toBeDefined();
      expect(baseKeys(catalogue(language, namespace))).toEqual(baseKeys(english));
    });

    it.each(LANGUAGES)('%s has every plural form its rules ask for', (language) => {
      const strings = catalogue(language, namespace);
      const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
      const plurals = new Set(Object.keys(strings).filter((k) => PLURAL.test(k)).map((k) => k.replace(PLURAL, '')));
      const missing = [...plurals].flatMap((key) => forms.filter((form) => !(`${key}_${form}` in strings)).map((f) => `${key}_${f}`));
      expect(missing).toEqual([]);
    });

    it.each(LANGUAGES.filter((language) => language !== 'en-US'))('%s leaves no English behind', (language) => {
      const allowed = (text: string) => SAME_IN_EVERY_LANGUAGE.has(text) || SAME_IN[language]?.has(text) || WORDLESS(text);
      const english = catalogue('en-US', namespace);
      const untranslated = Object.entries(catalogue(language, namespace))
        .filter(([key, text]) => english[key] === text && !allowed(text))
        .map(([key, text]) => `${key}: ${text}`);
      expect(untranslated).toEqual([]);
    });

    it.each(LANGUAGES)('%s fills no placeholder en-US does not', (language) => {
      const known = new Map<string, Set<string | undefined>>();
      for (const [key, text] of Object.entries(english)) {
        const base = key.replace(PLURAL, '');
        known.set(base, new Set([...(known.get(base) ?? []), ...placeholders(text)]));
      }
      const unknown = Object.entries(catalogue(language, namespace)).flatMap(([key, text]) =>
        placeholders(text)
          .filter((name) => !known.get(key.replace(PLURAL, ''))?.has(name))
          .map((name) => `${key}: {{${name}}}`),
      );
      expect(unknown).toEqual([]);
    });
  });
});
