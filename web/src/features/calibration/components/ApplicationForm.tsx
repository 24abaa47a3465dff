import { Button, Callout, Spinner } from '@blueprintjs/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { signedIn, useApply, usePrices } from '@/lib/api/calibration';
import { LIVE_VALIDATION } from '@/lib/forms';
import { sortError } from '@/lib/serverErrors';
import { applyBody, formResolver, EMPTY_FORM, type FormValues } from '../form';
import { query } from '../ref';
import { DetailsFields } from './DetailsFields';
import { DeviceLines } from './DeviceLines';

/** The PC application form; `example`: filled and read-only, nothing sent. Applied, it goes to the preview to pay. */
export function ApplicationForm({ example }: { example?: FormValues }) {
  const { t } = useTranslation('calibration');
  const navigate = useNavigate();
  const prices = usePrices();
  const apply = useApply();
  const list = prices.data ?? [];
  const form = useForm<FormValues>({
    ...LIVE_VALIDATION,
    mode: 'onTouched',
    defaultValues: example ?? EMPTY_FORM,
    resolver: formResolver(t, list),
  });
  const submit = form.handleSubmit(async (values) => {
    try {
      const applied = await apply.mutateAsync(applyBody(values, list));
      navigate(`/calibration/preview?${query(applied)}`);
    } catch (error) {
      const sorted = sortError(error, Object.keys(EMPTY_FORM) as (keyof FormValues)[], {}, t);
      for (const [name, message] of Object.entries(sorted.fields)) form.setError(name as keyof FormValues, { message });
      form.setError('root', { message: sorted.form ?? undefined });
    }
  });
  if (prices.isPending) return <Spinner size={30} />;
  return (
    <form className="jc-cal-form" onSubmit={submit} noValidate data-testid="calibration-form">
      {!example && !signedIn() && (
        <Callout className="jc-cal-note">
          {t('form.asGuest')} <Link to="/calibration/login?redirect=/calibration/form">{t('form.login')}</Link>
        </Callout>
      )}
      <fieldset className="jc-cal-section">
        <legend>{t('section.devices')}</legend>
        <DeviceLines form={form} prices={list} readOnly={Boolean(example)} />
      </fieldset>
      <DetailsFields form={form} readOnly={Boolean(example)} />
      {form.formState.errors.root?.message && (
        <Callout intent="danger" data-testid="calibration-form-error">{form.formState.errors.root.message}</Callout>
      )}
      {!example && (
        <Button type="submit" intent="primary" size="large" text={t('form.submit')} loading={apply.isPending}
          data-testid="calibration-submit" />
      )}
    </form>
  );
}
