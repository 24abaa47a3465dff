import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, TextArea } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { notify } from '@/lib/notify';
import { showError } from '@/lib/serverErrors';
import { ORDER_LIMITS, useHandleOrder, type OrderDossier } from '../api/orders';

interface HandlingDialogProps {
  /** The order to handle; null: closed. */
  order: OrderDossier | null;
  onClose: () => void;
}

type HandlingForm = { reason: string };

/** Manual handling: the operator says why; the server asks the provider and settles only on its word. */
export function HandlingDialog({ order, onClose }: HandlingDialogProps) {
  const { t } = useTranslation('orderdesk');
  return (
    <Dialog isOpen={order !== null} onClose={onClose} title={order ? t('handle.title', { code: order.orderCode }) : ''}
      className="jc-od-dialog">
      {order && <HandlingBody order={order} onDone={onClose} />}
    </Dialog>
  );
}

function HandlingBody({ order, onDone }: { order: OrderDossier; onDone: () => void }) {
  const { t } = useTranslation('orderdesk');
  const schema = useMemo(() => z.object({
    reason: z.string().trim().min(1, t('handle.required')).max(ORDER_LIMITS.reason, t('handle.tooLong', { max: ORDER_LIMITS.reason })),
  }), [t]);
  const handle = useHandleOrder();
  const [refusal, setRefusal] = useState<string | null>(null);
  const { control, handleSubmit, setError } = useForm<HandlingForm>({
    resolver: zodResolver(schema), mode: 'onChange', defaultValues: { reason: '' },
  });
  const submit = handleSubmit(({ reason }) => {
    setRefusal(null);
    handle.mutate({ orderId: order.orderId, reason: reason.trim() }, {
      onSuccess: () => {
        notify.success(t('handle.done', { code: order.orderCode }));
        onDone();
      },
      onError: (error) => setRefusal(showError(error, setError, ['reason'] as const, {}, t)),
    });
  });
  return (
    <form onSubmit={(e) => void submit(e)} data-testid="od-handle-form">
      <DialogBody>
        <Callout intent="primary" compact>{t('handle.explain')}</Callout>
        <Controller name="reason" control={control} render={({ field: { ref, ...field }, fieldState }) => (
          <FormGroup className="jc-od-reason-field" label={t('handle.reason')} labelFor="od-reason"
            intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message ?? t('handle.reasonHint')}>
            <TextArea {...field} id="od-reason" inputRef={ref} fill rows={3} maxLength={ORDER_LIMITS.reason}
              intent={fieldState.error ? 'danger' : 'none'} data-testid="od-reason" />
          </FormGroup>
        )} />
        {refusal && <Callout intent="danger" title={t('handle.refused')} data-testid="od-refusal">{refusal}</Callout>}
      </DialogBody>
      <DialogFooter actions={(
        <>
          <Button text={t('handle.cancel')} onClick={onDone} />
          <Button type="submit" intent="warning" text={t('handle.submit')} loading={handle.isPending} data-testid="od-handle-submit" />
        </>
      )} />
    </form>
  );
}
