/**
 * i18next with the seven languages. Every folder may hold `locales/<language>.json`; the folder's
 * name is the namespace (`features/auth/locales/de-DE.json` is namespace `auth`; this folder's is
 * `common`), so each feature owns its strings. A feature worked on in parts may add further
 * catalogues beside it named `<part>Locales/<language>.json` (`recharge/alertsLocales/`): they join
 * the same namespace, each under its own top-level keys. A page fetches only the catalogues of its
 * language and that language's fallbacks, one chunk per language.
 */
import i18next, { type BackendModule, type Resource, type ResourceLanguage } from 'i18next';
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

const CATALOGUE_PATH = /\/([^/]+)\/(?:[a-z][A-Za-z]*L|l)ocales\/([^/]+)\.json$/;

/** The language and namespace a locale file holds, read from its path. */
function catalogueOf(path: string): { language: string; namespace: string } | undefined {
  const match = CATALOGUE_PATH.exec(path);
  if (!match) return undefined;
  const [, folder, language] = match as unknown as [string, string, string];
  return { language, namespace: folder === 'i18n' ? 'common' : folder };
}

/** `{language: {namespace: strings}}` from the paths of the locale files. */
export function buildResources(modules: Modules): Resource {
  const resources: Resource = {};
  for (const [path, strings] of Object.entries(modules)) {
    const catalogue = catalogueOf(path);
    if (!catalogue) continue;
    const { language, namespace } = catalogue;
    resources[language] ??= {};
    const earlier = resources[language]![namespace] as Record<string, unknown> | undefined;
    resources[language]![namespace] = { ...earlier, ...strings } as Record<string, string>;
  }
  return resources;
}

// Loaded on demand, never all at once: vite.config.ts bundles each language's files into one
// chunk (`locale-de-DE`), so a page fetches only the languages i18next asks for.
const catalogueFiles = import.meta.glob<Record<string, unknown>>(['/src/**/locales/*.json', '/src/**/*Locales/*.json'], {
  import: 'default',
});
export const NAMESPACES = [...new Set(Object.keys(catalogueFiles).flatMap((path) => catalogueOf(path)?.namespace ?? []))];

const languagesLoading = new Map<string, Promise<ResourceLanguage>>();

/** Every namespace of one language; fetched once, and again only after a failed fetch. */
export function loadLanguage(language: string): Promise<ResourceLanguage> {
  let loading = languagesLoading.get(language);
  if (!loading) {
    const files = Object.entries(catalogueFiles).filter(([path]) => catalogueOf(path)?.language === language);
    loading = Promise.all(files.map(async ([path, load]) => [path, await load()] as const)).then(
      (loaded) => buildResources(Object.fromEntries(loaded))[language] ?? {},
    );
    loading.catch(() => languagesLoading.delete(language));
    languagesLoading.set(language, loading);
  }
  return loading;
}

/** i18next asks for each language and namespace it needs before it switches to that language. */
const catalogueBackend: BackendModule = {
  type: 'backend',
  callbackApi: true,
  init() {},
  read(language, namespace, callback) {
    loadLanguage(language).then(
      (strings) => callback(null, strings[namespace] ?? {}),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/** The stored choice, else the edition's default language. */
export function initialLanguage(editionDefault: Language): Language {
  const stored = read<string | null>(KEYS.language, null);
  return isLanguage(stored) ? stored : editionDefault;
}

export async function initI18n(language: Language, fallback: Language): Promise<typeof i18next> {
  // init resolves once the language and its fallbacks are loaded, so no page shows bare keys.
  await i18next.use(catalogueBackend).use(initReactI18next).init({
    lng: language,
    fallbackLng: [fallback, 'en-US'],
    supportedLngs: LANGUAGES,
    load: 'currentOnly',
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

/** Switch language, once its strings are loaded, and remember the choice; requests carry it as Accept-Language. */
export async function changeLanguage(language: Language): Promise<void> {
  write(KEYS.language, language);
  await i18next.changeLanguage(language);
  document.documentElement.lang = language;
}

/**
 * Takes up the account's saved language, if it has one other than the current: at login it wins
 * over this browser's, so a choice made anywhere follows the owner. Says whether it switched.
 */
export async function adoptAccountLanguage(saved: string | null): Promise<boolean> {
  if (!isLanguage(saved) || saved === currentLanguage()) return false;
  await changeLanguage(saved);
  return true;
}

export const t = (key: string, options?: Record<string, unknown>): string => i18next.t(key, options);
