import { Button, Menu, MenuItem, PopoverNext } from '@blueprintjs/core';
import { BlankIcon, CaretDownIcon, GlobeIcon, TickIcon } from '@blueprintjs/icons';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { loadSessionPermissions } from '@/app/effects';
import { savePreferences } from '@/lib/api/preferences';
import { changeLanguage, currentLanguage, isLanguage, LANGUAGE_NAMES, LANGUAGES, type Language } from '@/lib/i18n';
import { getToken } from '@/lib/storage';

/**
 * Switches the language; signed in, the account keeps it too (as the account page does), so
 * alarms, e-mails and messages reach the owner in it and the next login, on any browser, starts
 * in it. Then asks the server again for what it wrote in the old one (scene names, the notice,
 * the expiry reminder, dictionary labels). A failed save is reported; the console stays switched.
 */
export async function switchLanguage(code: Language, queryClient: QueryClient): Promise<void> {
  await changeLanguage(code);
  if (getToken()) await savePreferences({ language: code }, { silent: false }).catch(() => undefined);
  await Promise.allSettled([loadSessionPermissions(), queryClient.invalidateQueries()]);
}

export interface LanguageSwitcherProps {
  /** Show the language's name next to the globe (the global map shows it always). */
  showName: boolean;
  /** Draw it as a bordered button that stands out (the global map). */
  prominent?: boolean;
}

/** The seven languages, each named in itself; the choice is stored and applied at once. */
export function LanguageSwitcher({ showName, prominent = false }: LanguageSwitcherProps) {
  const { t, i18n } = useTranslation('layout');
  const queryClient = useQueryClient();
  const language = isLanguage(i18n.language) ? i18n.language : currentLanguage();
  return (
    <PopoverNext
      placement="bottom-end"
      arrow={false}
      animation="minimal"
      content={
        <Menu aria-label={t('language')}>
          {LANGUAGES.map((code) => (
            <MenuItem
              key={code}
              text={LANGUAGE_NAMES[code]}
              lang={code}
              data-lang={code}
              icon={code === language ? <TickIcon /> : <BlankIcon />}
              active={code === language}
              onClick={() => void switchLanguage(code, queryClient)}
            />
          ))}
        </Menu>
      }
    >
      <Button
        variant={prominent ? 'outlined' : 'minimal'}
        icon={<GlobeIcon />}
        endIcon={showName ? <CaretDownIcon /> : undefined}
        text={showName ? LANGUAGE_NAMES[language] : undefined}
        aria-label={`${t('language')}: ${LANGUAGE_NAMES[language]}`}
        title={t('language')}
        className={prominent ? 'jc-language jc-language--prominent' : 'jc-language'}
        data-testid="language-switcher"
      />
    </PopoverNext>
  );
}
