import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, H6, InputGroup, Spinner, TextArea } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useDebouncedValue } from '@/hooks/useDebouncedValue';
import { centsText, parseCents } from '@/lib/money';
import { notify } from '@/lib/notify';
import { showError, sortError } from '@/lib/serverErrors';
import { ORDER_LIMITS, REFUND_STATUS, type OrderDossier } from '../api/orders';
import { useRefundOrder, useRefundPreview } from '../api/refunds';
import { checkAmount } from '../refundAmount';
import { TakeBackList } from './TakeBackList';
import { useDeskFormat } from './useDeskFormat';

/** The preview is asked again once the amount has stopped changing this long. */
export const PREVIEW_DELAY_MS = 400;
/** RefundTooLarge (src/core/ordering/refunds.py): its message goes under the amount. */
const REFUND_TOO_LARGE = 1135;

interface RefundDialogProps {
  /** The order to refund; null: closed. */
  order: OrderDossier | null;
  onClose: () => void;
}

type RefundForm = { amount: string; reason: string };

/**
 * A refund of all or part of a paid order: the amount (all that is left by default), what it takes
 * back from each device (previewed again as the amount changes), whether a second operator must
 * approve it, and why.
 */
export function RefundDialog({ order, onClose }: RefundDialogProps) {
  const { t } = useTranslation('orderdesk');
  return (
    <Dialog isOpen={order !== null} onClose={onClose} title={order ? t('refund.title', { code: order.orderCode }) : ''}
      className="jc-od-dialog">
      {order && <RefundBody order={order} onDone={onClose} />}
    </Dialog>
  );
}

/** Asks first what may be refunded, which the form's amount starts at and is bounded by. */
function RefundBody({ order, onDone }: { order: OrderDossier; onDone: () => void }) {
  const { t } = useTranslation('orderdesk');
  const all = useRefundPreview(order.orderId, null);
  if (all.data) return <RefundForm order={order} refundable={all.data.refundable} onDone={onDone} />;
  return (
    <DialogBody>
      {all.isError ? (
        <Callout intent="danger" title={t('refund.notNow')} data-testid="od-refund-refusal">
          {sortError(all.error, [], {}, t).form}
        </Callout>
      ) : <Spinner size={32} />}
    </DialogBody>
  );
}

function RefundForm({ order, refundable, onDone }: { order: OrderDossier; refundable: number; onDone: () => void }) {
  const { t } = useTranslation('orderdesk');
  const { money } = useDeskFormat();
  const left = money(refundable, order.currency);
  const schema = useMemo(() => z.object({
    amount: z.string().superRefine((text, context) => {
      const checked = checkAmount(text, refundable);
      if ('problem' in checked) context.addIssue({ code: 'custom', message: t(`refund.amountProblem.${checked.problem}`, { max: left }) });
    }),
    reason: z.string().trim().min(1, t('refund.required')).max(ORDER_LIMITS.reason, t('handle.tooLong', { max: ORDER_LIMITS.reason })),
  }), [t, refundable, left]);
  const { control, handleSubmit, setError } = useForm<RefundForm>({
    resolver: zodResolver(schema), mode: 'onChange', defaultValues: { amount: centsText(refundable), reason: '' },
  });
  const typed = checkAmount(useWatch({ control, name: 'amount' }), refundable);
  const cents = 'cents' in typed ? typed.cents : null;
  const settled = useDebouncedValue(cents, PREVIEW_DELAY_MS);
  const preview = useRefundPreview(order.orderId, settled, settled !== null);
  const quote = cents === null ? undefined : preview.data;
  // What is confirmed is what was shown: the preview of exactly this amount.
  const current = quote !== undefined && quote.amount === cents && !preview.isPlaceholderData && !preview.isError;
  const refund = useRefundOrder();
  const [refusal, setRefusal] = useState<string | null>(null);

  const submit = handleSubmit(({ amount, reason }) => {
    const asked = parseCents(amount);
    if (!current || asked === null) return;
    setRefusal(null);
    refund.mutate({ orderId: order.orderId, amount: asked, reason: reason.trim() }, {
      onSuccess: (made) => {
        const shown = { code: order.orderCode, amount: money(made.amount, made.currency) };
        if (made.status === REFUND_STATUS.awaitingApproval) notify.info(t('refund.sentForApproval', shown));
        else if (made.status === REFUND_STATUS.succeeded) notify.success(t('refund.done', shown));
        else notify.info(t('refund.underWay', shown));
        onDone();
      },
      onError: (error) => setRefusal(showError(error, setError, ['amount', 'reason'] as const, { [REFUND_TOO_LARGE]: 'amount' }, t)),
    });
  });
  return (
    <form onSubmit={(e) => void submit(e)} data-testid="od-refund-form">
      <DialogBody>
        <Controller name="amount" control={control} render={({ field: { ref, ...field }, fieldState }) => (
          <FormGroup label={t('refund.amount', { currency: order.currency })} labelFor="od-refund-amount"
            intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message ?? t('refund.amountHint', { max: left })}>
            <InputGroup {...field} id="od-refund-amount" inputRef={ref} inputMode="decimal" autoComplete="off"
              intent={fieldState.error ? 'danger' : 'none'} data-testid="od-refund-amount" />
          </FormGroup>
        )} />
        <section className="jc-od-preview" aria-busy={!current} data-testid="od-refund-preview">
          <H6>{t('refund.takesBack')}</H6>
          {cents === null ? (
            <p className="jc-od-sub">{t('refund.previewNeedsAmount')}</p>
          ) : preview.isError ? (
            <Callout intent="danger" compact>{sortError(preview.error, [], {}, t).form}</Callout>
          ) : quote ? (
            <div className={current ? undefined : 'jc-stale'}>
              <TakeBackList takeBacks={quote.takeBacks} />
            </div>
          ) : <Spinner size={20} />}
        </section>
        {current && quote.needsApproval && (
          <Callout intent="warning" title={t('refund.needsApproval')} data-testid="od-refund-approval">
            {t('refund.needsApprovalHint')}
          </Callout>
        )}
        <Controller name="reason" control={control} render={({ field: { ref, ...field }, fieldState }) => (
          <FormGroup className="jc-od-reason-field" label={t('handle.reason')} labelFor="od-refund-reason"
            intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message ?? t('refund.reasonHint')}>
            <TextArea {...field} id="od-refund-reason" inputRef={ref} fill rows={3} maxLength={ORDER_LIMITS.reason}
              intent={fieldState.error ? 'danger' : 'none'} data-testid="od-refund-reason" />
          </FormGroup>
        )} />
        {refusal && <Callout intent="danger" title={t('refund.refused')} data-testid="od-refund-refusal">{refusal}</Callout>}
      </DialogBody>
      <DialogFooter actions={(
        <>
          <Button text={t('handle.cancel')} onClick={onDone} />
          <Button type="submit" intent="danger" text={cents === null ? t('refund.submitNone') : t('refund.submit', { amount: money(cents, order.currency) })}
            disabled={!current} loading={refund.isPending} data-testid="od-refund-submit" />
        </>
      )} />
    </form>
  );
}
