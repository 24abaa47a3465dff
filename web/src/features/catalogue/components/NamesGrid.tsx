import { InputGroup } from '@blueprintjs/core';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_NAMES, LANGUAGES } from '@/lib/i18n/index';

interface NamesGridProps<V extends FieldValues> {
  control: Control<V>;
  /** The form's field holding { [language]: { name, description } }. */
  field: string;
  withDescription: boolean;
  defaultLanguage: string;
  testId: string;
}

/** The seven languages side by side, a row each: the name, and the description where there is one.
 * The platform's default language is required; a language left blank reads the default's. */
export function NamesGrid<V extends FieldValues>({ control, field, withDescription, defaultLanguage, testId }:
  NamesGridProps<V>) {
  const { t } = useTranslation('catalogue');
  return (
    <div className={`jc-cat-names${withDescription ? ' jc-cat-names-described' : ''}`} data-testid={testId}>
      <span className="jc-cat-names-head">{t('form.language')}</span>
      <span className="jc-cat-names-head">{t('form.name')}</span>
      {withDescription && <span className="jc-cat-names-head">{t('form.description')}</span>}
      {LANGUAGES.map((lang) => (
        <div key={lang} className="jc-cat-names-row" role="group" aria-label={LANGUAGE_NAMES[lang]}>
          <label htmlFor={`${testId}-${lang}-name`} className="jc-cat-names-lang">
            {LANGUAGE_NAMES[lang]}{lang === defaultLanguage ? ' *' : ''}
          </label>
          <Controller name={`${field}.${lang}.name` as Path<V>} control={control} render={({ field: f, fieldState }) => (
            <div>
              <InputGroup {...f} id={`${testId}-${lang}-name`} inputRef={f.ref} intent={fieldState.error ? 'danger' : 'none'}
                placeholder={lang === defaultLanguage ? t('form.required') : t('form.fallback')}
                data-testid={`${testId}-${lang}-name`} />
              {fieldState.error && <small className="jc-cat-error">{fieldState.error.message}</small>}
            </div>
          )} />
          {withDescription && (
            <Controller name={`${field}.${lang}.description` as Path<V>} control={control}
              render={({ field: f, fieldState }) => (
                <div>
                  <InputGroup {...f} inputRef={f.ref} aria-label={`${t('form.description')} ${LANGUAGE_NAMES[lang]}`}
                    placeholder={t('form.description')}
                    intent={fieldState.error ? 'danger' : 'none'} data-testid={`${testId}-${lang}-description`} />
                  {fieldState.error && <small className="jc-cat-error">{fieldState.error.message}</small>}
                </div>
              )} />
          )}
        </div>
      ))}
    </div>
  );
}
