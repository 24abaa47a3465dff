/**
 * The UI text is fetched per language: a page holds its language and that language's fallbacks,
 * and a switch of language shows the new text only once it has arrived, never bare keys.
 */
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { changeLanguage, initI18n, LANGUAGES } from './index';
import german from './locales/de-DE.json';
import english from './locales/en-US.json';

const loaded = () => LANGUAGES.filter((language) => i18next.hasResourceBundle(language, 'common'));

describe('the catalogues loaded on demand', () => {
  it('starts with the language, its fallback and English only, its text already there', async () => {
    await initI18n('zh-TW', 'zh-CN');
    expect(loaded().sort()).toEqual(['en-US', 'zh-CN', 'zh-TW']);
    expect(i18next.t('cancel')).not.toBe('cancel');
  });

  it('switches language once that language has arrived', async () => {
    await initI18n('en-US', 'en-US');
    expect(loaded()).toEqual(['en-US']);
    expect(i18next.t('cancel')).toBe(english.cancel);

    const switching = changeLanguage('de-DE');
    expect(i18next.language).toBe('en-US');
    expect(i18next.t('cancel')).toBe(english.cancel);
    await switching;

    expect(i18next.language).toBe('de-DE');
    expect(i18next.t('cancel')).toBe(german.cancel);
    expect(document.documentElement.lang).toBe('de-DE');
    expect(loaded().sort()).toEqual(['de-DE', 'en-US']);
  });
});
