import { Button, Menu, MenuItem, PopoverNext } from '@blueprintjs/core';
import { CaretDownIcon, TranslateIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { changeLanguage, currentLanguage, LANGUAGE_NAMES, LANGUAGES } from '@/lib/i18n';

/** The seven languages, each named in itself; the choice is remembered and sent with each call. */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation('auth');
  const active = i18n.language ? currentLanguage() : 'en-US';
  return (
    <PopoverNext
      placement="bottom-end"
      animation="minimal"
      arrow={false}
      content={
        <Menu aria-label={t('language')}>
          {LANGUAGES.map((language) => (
            <MenuItem
              key={language}
              text={LANGUAGE_NAMES[language]}
              lang={language}
              roleStructure="listoption"
              selected={language === active}
              onClick={() => void changeLanguage(language)}
            />
          ))}
        </Menu>
      }
    >
      <Button
        className="jc-auth-language"
        variant="minimal"
        icon={<TranslateIcon />}
        endIcon={<CaretDownIcon />}
        aria-label={t('language')}
        title={t('language')}
      >
        {LANGUAGE_NAMES[active]}
      </Button>
    </PopoverNext>
  );
}
