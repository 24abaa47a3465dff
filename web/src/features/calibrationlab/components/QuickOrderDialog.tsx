import { Button, Callout, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useHandleQuickOrder, type LabApplication } from '@/lib/api/calibrationLab';
import { LIVE_VALIDATION } from '@/lib/forms';
import { notify } from '@/lib/notify';
import { quickOrderDetails, quickOrderFormOf, quickOrderFormSchema, type QuickOrderForm } from '../quickOrderForm';
import { placeProblems } from '../serverProblems';
import { Field } from './Field';

const FIELDS = ['customerName', 'contactName', 'contactPhone', 'contactEmail', 'returnAddress', 'customerAddress', 'remark'];

/** Completes a quick order's details (customer, contact, return address) so the application is whole. */
export function QuickOrderDialog({ application, onClose }: { application: LabApplication; onClose: () => void }) {
  const { t } = useTranslation(['calibrationlab', 'common']);
  const resolver = useMemo(() => zodResolver(quickOrderFormSchema(t)), [t]);
  const form = useForm<QuickOrderForm>({ ...LIVE_VALIDATION, resolver, defaultValues: quickOrderFormOf(application) });
  const handle = useHandleQuickOrder();
  const [failure, setFailure] = useState<string | null>(null);
  const required = t('required');
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await handle.mutateAsync({ applicationId: application.applicationId ?? 0, details: quickOrderDetails(values) });
      notify.success(t('quick.completed', { number: application.applicationNumber }));
      onClose();
    } catch (error) {
      setFailure(placeProblems(error, form.setError, (name) => (FIELDS.includes(name) ? name : null), t));
    }
  });
  const { control } = form;
  return (
    <Dialog isOpen onClose={onClose} title={t('quick.dialogTitle', { number: application.applicationNumber })} className="jc-cl-dialog">
      <form onSubmit={submit} noValidate data-testid="quick-form">
        <DialogBody>
          <Field control={control} name="customerName" label={t('field.customer')} required={required} />
          <Field control={control} name="contactName" label={t('field.contactName')} required={required} />
          <Field control={control} name="contactPhone" label={t('field.phone')} />
          <Field control={control} name="contactEmail" label={t('field.email')} />
          <Field control={control} name="returnAddress" label={t('field.returnAddress')} required={required} />
          <Field control={control} name="customerAddress" label={t('field.customerAddress')} />
          <Field control={control} name="remark" label={t('field.remark')} multiline />
          {failure && <Callout intent="danger">{failure}</Callout>}
        </DialogBody>
        <DialogFooter actions={<>
          <Button text={t('common:cancel')} onClick={onClose} />
          <Button type="submit" intent="primary" text={t('quick.save')} loading={form.formState.isSubmitting} data-testid="quick-save" />
        </>} />
      </form>
    </Dialog>
  );
}
