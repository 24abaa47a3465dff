import { Button, Callout } from '@blueprintjs/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  INVOICE_ENTERPRISE, INVOICE_PERSONAL, refOf, useInvoice, usePrices, useUpdateBaseInfo, useUpdateInvoice,
  type Application,
} from '@/lib/api/calibration';
import { notify } from '@/lib/notify';
import { sortError } from '@/lib/serverErrors';
import { applyBody, EMPTY_FORM, formResolver, type FormValues } from '../form';
import { DetailsFields } from './DetailsFields';

/**
 * The customer changes an application's details and invoice until the lab holds the devices
 * (update/baseInfo keeps the invoice; update/invoice changes it alone).
 */
export function EditDetails({ application }: { application: Application }) {
  const { t } = useTranslation('calibration');
  const [open, setOpen] = useState(false);
  const details = application.details;
  if (!details) return null;
  return open ? <DetailsForm application={application} onDone={() => setOpen(false)} />
    : <Button variant="outlined" text={t('detail.edit')} data-testid="calibration-edit" onClick={() => setOpen(true)} />;
}

function DetailsForm({ application, onDone }: { application: Application; onDone: () => void }) {
  const { t } = useTranslation('calibration');
  const ref = refOf(application);
  const details = application.details!;
  const invoice = useInvoice(ref);
  const prices = usePrices();
  const baseInfo = useUpdateBaseInfo();
  const changeInvoice = useUpdateInvoice();
  const held = invoice.data ?? details.invoice;
  const form = useForm<FormValues>({
    mode: 'onTouched',
    values: {
      ...EMPTY_FORM, customerName: details.customerName ?? '', customerAddress: details.customerAddress ?? '',
      contactName: details.contactName, contactPhone: details.contactPhone ?? '', contactEmail: details.contactEmail ?? '',
      returnAddress: details.returnAddress ?? '', remark: details.remark ?? '', wantInvoice: held !== null,
      invoiceType: held?.invoiceType ?? INVOICE_PERSONAL, invoiceTitle: held?.invoiceTitle ?? '',
      taxNumber: held?.invoiceType === INVOICE_ENTERPRISE ? held.taxNumber ?? '' : '',
    },
    resolver: formResolver(t, prices.data ?? [], 'details', application.quickOrder),
  });
  const submit = form.handleSubmit(async (values) => {
    const { invoice: wanted, devices: _devices, totalFee: _total, ...info } = applyBody(values, []);
    try {
      await baseInfo.mutateAsync({ ref, info });
      await changeInvoice.mutateAsync({ ref, invoice: wanted });
      notify.success(t('detail.saved'));
      onDone();
    } catch (error) {
      form.setError('root', { message: sortError(error, [], {}, t).form ?? undefined });
    }
  });
  return (
    <form className="jc-cal-form" onSubmit={submit} noValidate data-testid="calibration-edit-form">
      <DetailsFields form={form} />
      {form.formState.errors.root?.message && <Callout intent="danger">{form.formState.errors.root.message}</Callout>}
      <div className="jc-cal-step-buttons">
        <Button text={t('detail.keep')} onClick={onDone} />
        <Button type="submit" intent="primary" text={t('detail.saveDetails')} loading={baseInfo.isPending || changeInvoice.isPending}
          data-testid="calibration-edit-save" />
      </div>
    </form>
  );
}
