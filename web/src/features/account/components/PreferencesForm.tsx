import { Button, Callout, FormGroup, HTMLSelect } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { loadSessionPermissions } from '@/app/effects';
import type { AccountInfo } from '@/lib/api/accountInfo';
import { changeLanguage, currentLanguage, isLanguage, LANGUAGE_NAMES, LANGUAGES } from '@/lib/i18n';
import { notify } from '@/lib/notify';
import { showError } from '@/lib/serverErrors';
import { savePreferences } from '../api/account';

const BROWSER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** IANA zones the browser knows (the server checks against its own list). */
export function timeZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([...zones, BROWSER_ZONE, 'UTC'])].sort();
}

interface PreferenceValues {
  language: string;
  timeZone: string;
}

/** The language and time zone of the console and of the messages sent to the owner; the console follows at once. */
export function PreferencesForm({ info }: { info: AccountInfo }) {
  const { t } = useTranslation('account');
  const queryClient = useQueryClient();
  const zones = useMemo(timeZones, []);
  const account = info.baseAccount;
  const form = useForm<PreferenceValues>({
    defaultValues: {
      language: isLanguage(account.language) ? account.language : currentLanguage(),
      timeZone: account.timeZone ?? BROWSER_ZONE,
    },
  });
  const [failure, setFailure] = useState<string | null>(null);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await savePreferences(values);
    } catch (error) {
      setFailure(showError(error, form.setError, ['language', 'timeZone'] as const, {}, t));
      return;
    }
    if (isLanguage(values.language) && values.language !== currentLanguage()) await changeLanguage(values.language);
    await Promise.allSettled([loadSessionPermissions(), queryClient.invalidateQueries()]);
    notify.success(t('saved'));
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="jc-account-form" data-testid="preferences-form">
      <Controller
        name="language"
        control={form.control}
        render={({ field, fieldState }) => (
          <FormGroup label={t('preferences.language')} labelFor="language" intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message}>
            <HTMLSelect id="language" fill {...field}>
              {LANGUAGES.map((code) => (
                <option key={code} value={code} lang={code}>{LANGUAGE_NAMES[code]}</option>
              ))}
            </HTMLSelect>
          </FormGroup>
        )}
      />
      <Controller
        name="timeZone"
        control={form.control}
        render={({ field, fieldState }) => (
          <FormGroup label={t('preferences.timeZone')} labelFor="timeZone" intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message ?? t('preferences.timeZoneHint')}>
            <HTMLSelect id="timeZone" fill {...field}>
              {zones.map((zone) => (
                <option key={zone} value={zone}>{zone.replace(/_/g, ' ')}</option>
              ))}
            </HTMLSelect>
          </FormGroup>
        )}
      />
      {failure && <Callout intent="danger" compact>{failure}</Callout>}
      <Button type="submit" intent="primary" text={t('save')} loading={form.formState.isSubmitting} data-testid="preferences-save" />
    </form>
  );
}
