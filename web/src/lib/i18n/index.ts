/**
 * i18next with the seven languages. Every folder may hold `locales/<language>.json`; the folder's
 * name is the namespace (`features/auth/locales/de-DE.json` is namespace `auth`; this folder's is
 * `common`), so each feature owns its strings. A feature worked on in parts may add further
 * catalogues beside it named `<part>Locales/<language>.json` (`recharge/alertsLocales/`): they join
 * the same namespace, each under its own top-level keys.
 */
import i18next, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { KEYS, read, write } from '../storage';

export const LANGUAGES = ['en-US', 'zh-CN', 'es-ES', 'ru-RU', 'pt-PT', 'de-DE', 'zh-TW'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language named in itself, for the language switcher. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  'en-US': 'English',
  'zh-CN': '简体中文',
  'es-ES': 'Español',
  'ru-RU': 'Русский',
  'pt-PT': 'Português',
  'de-DE': 'Deutsch',
  'zh-TW': '繁體中文',
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

type Modules = Record<string, Record<string, unknown>>;

/** `{language: {namespace: strings}}` from the paths of the locale files. */
export function buildResources(modules: Modules): Resource {
  const resources: Resource = {};
  for (const [path, strings] of Object.entries(modules)) {
    const match = /\/([^/]+)\/(?:[a-z][A-Za-z]*L|l)ocales\/([^/]+)\.json$/.exec(path);
    if (!match) continue;
    const [, folder, language] = match as unknown as [string, string, string];
    const namespace = folder === 'i18n' ? 'common' : folder;
    resources[language] ??= {};
    const earlier = resources[language]![namespace] as Record<string, unknown> | undefined;
    resources[language]![namespace] = { ...earlier, ...strings } as Record<string, string>;
  }
  return resources;
}

const modules = import.meta.glob<Record<string, unknown>>(['/src/**/locales/*.json', '/src/**/*Locales/*.json'], {
  eager: true,
  import: 'default',
});
export const resources = buildResources(modules);
export const NAMESPACES = [...new Set(Object.values(resources).flatMap((r) => Object.keys(r)))];

/** The stored choice, else the edition's default language. */
export function initialLanguage(editionDefault: Language): Language {
  const stored = read<string | null>(KEYS.language, null);
  return isLanguage(stored) ? stored : editionDefault;
}

export async function initI18n(language: Language, fallback: Language): Promise<typeof i18next> {
  await i18next.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: [fallback, 'en-US'],
    ns: NAMESPACES,
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  document.documentElement.lang = language;
  return i18next;
}

export function currentLanguage(): Language {
  return isLanguage(i18next.language) ? i18next.language : 'en-US';
}

/** Switch language now and remember the choice; requests carry it as Accept-Language. */
export async function changeLanguage(language: Language): Promise<void> {
  write(KEYS.language, language);
  await i18next.changeLanguage(language);
  document.documentElement.lang = language;
}

export const t = (key: string, options?: Record<string, unknown>): string => i18next.t(key, options);
