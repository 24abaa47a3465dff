import { Button, Callout } from '@blueprintjs/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useApplyQuickOrder, usePrices } from '@/lib/api/calibration';
import { sortError } from '@/lib/serverErrors';
import { applyBody, formResolver, EMPTY_FORM, emptyDevice, type FormValues } from '../form';
import { DetailsFields } from './DetailsFields';
import { DeviceLines } from './DeviceLines';
import { useHeld } from './held';

/** The calibration admins' permission: the server takes quick orders only from the lab. */
const LAB = 'calibration.admin.orders';

/**
 * A quick order: the contact, their devices and a remark; the lab completes the customer and the
 * return address later. The server takes it from the lab only (an order on the phone or at the
 * counter): anyone else is told to call the lab or to apply themselves.
 */
export function QuickOrderForm({ applyTo }: { applyTo: string }) {
  const { t } = useTranslation('calibration');
  const lab = useHeld(LAB);
  if (!lab) {
    return (
      <Callout className="jc-cal-note" data-testid="calibration-quick-lab-only">
        <p>{t('quick.labOnly')}</p>
        <Link to={applyTo} className="bp6-button bp6-intent-primary">{t('home.orderNow')}</Link>
      </Callout>
    );
  }
  return <LabQuickOrder />;
}

function LabQuickOrder() {
  const { t } = useTranslation('calibration');
  const prices = usePrices();
  const place = useApplyQuickOrder();
  const [placed, setPlaced] = useState<string | null>(null);
  const list = prices.data ?? [];
  const form = useForm<FormValues>({
    mode: 'onTouched',
    defaultValues: { ...EMPTY_FORM, devices: [emptyDevice()] },
    resolver: formResolver(t, list, 'all', true),
  });
  const submit = form.handleSubmit(async (values) => {
    try {
      const { totalFee: _shown, ...body } = applyBody(values, list);
      setPlaced((await place.mutateAsync(body)).applicationNumber);
      form.reset({ ...EMPTY_FORM, devices: [emptyDevice()] });
    } catch (error) {
      form.setError('root', { message: sortError(error, [], {}, t).form ?? undefined });
    }
  });
  return (
    <form className="jc-cal-form" onSubmit={submit} noValidate data-testid="calibration-quick-form">
      {placed && <Callout intent="success">{t('quick.placed', { number: placed })}</Callout>}
      <DetailsFields form={form} quick />
      <fieldset className="jc-cal-section">
        <legend>{t('section.devices')}</legend>
        <DeviceLines form={form} prices={list} />
      </fieldset>
      {form.formState.errors.root?.message && <Callout intent="danger">{form.formState.errors.root.message}</Callout>}
      <Button type="submit" intent="primary" text={t('quick.submit')} loading={place.isPending} />
    </form>
  );
}
