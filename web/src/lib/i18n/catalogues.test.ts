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
