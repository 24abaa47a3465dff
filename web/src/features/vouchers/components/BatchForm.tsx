/**
 * Issue a batch of coupons or recharge cards (spec seed 001 section 5: prefix up to 2 characters,
 * count required, remark up to 200 and required for coupons). Coupons: an amount off (in yuan or
 * dollars, sent as cents) or a percentage off; cards: a level and months. Both: validity and an
 * optional activity. At most 10,000 a batch.
 */
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, TextArea } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { Controller, useForm, type Control, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { editionConfig } from '@/lib/config';
import { LIVE_VALIDATION } from '@/lib/forms';
import { showError } from '@/lib/serverErrors';
import { COUPON_TYPE, VOUCHER_LIMITS, useReferences } from '../api/vouchers';

type T = (key: string, options?: Record<string, unknown>) => string;
export type BatchKind = 'coupons' | 'cards';

function today(offsetDays: number): string {
  const day = new Date(Date.now() + offsetDays * 86_400_000);
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
}

export function batchSchema(t: T, kind: BatchKind) {
  const whole = (min: number, max: number) =>
    z.number({ message: t('form.number') }).int(t('form.number')).min(min, t('form.range', { min, max }))
      .max(max, t('form.range', { min, max }));
  return z.object({
    prefix: z.string().trim().regex(/^[A-Za-z0-9]{0,2}$/, t('form.prefix')),
    count: whole(1, VOUCHER_LIMITS.count),
    couponType: z.number(),
    amount: z.number({ message: t('form.number') }).positive(t('form.number')).max(10_000_000, t('form.number')),
    levelId: z.number(),
    timeLength: whole(1, VOUCHER_LIMITS.months),
    activityId: z.number().nullable(),
    startDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, t('form.date')),
    endDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, t('form.date')),
    remark: kind === 'coupons'
      ? z.string().trim().min(1, t('form.required')).max(VOUCHER_LIMITS.remark, t('form.max', { max: VOUCHER_LIMITS.remark }))
      : z.string().trim().max(VOUCHER_LIMITS.remark, t('form.max', { max: VOUCHER_LIMITS.remark })),
  }).superRefine((values, ctx) => {
    if (values.endDate <= values.startDate) ctx.addIssue({ code: 'custom', path: ['endDate'], message: t('form.endAfterStart') });
    if (kind === 'coupons' && values.couponType === COUPON_TYPE.percent
        && !(Number.isInteger(values.amount) && values.amount >= 1 && values.amount <= VOUCHER_LIMITS.percent)) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: t('form.percent') });
    }
    if (kind === 'cards' && !values.levelId) ctx.addIssue({ code: 'custom', path: ['levelId'], message: t('form.required') });
  });
}
export type BatchValues = z.infer<ReturnType<typeof batchSchema>>;
const FIELDS = ['prefix', 'count', 'amount', 'levelId', 'timeLength', 'remark', 'endDate'] as const;
const BY_FIELD: Record<string, (typeof FIELDS)[number]> = {};

/** The body of a batch as the server takes it: cents, instants at the start of each local day. */
export function batchBody(values: BatchValues, kind: BatchKind, cnyWhole: boolean) {
  const common = {
    prefix: values.prefix.toUpperCase(), count: values.count, activityId: values.activityId,
    startTime: `${values.startDate}T00:00:00`, endTime: `${values.endDate}T00:00:00`, remark: values.remark.trim(),
  };
  if (kind === 'cards') return { ...common, levelId: values.levelId, timeLength: values.timeLength };
  const amount = values.couponType === COUPON_TYPE.percent
    ? values.amount
    : cnyWhole ? Math.round(values.amount) * 100 : Math.round(values.amount * 100);
  return { ...common, couponType: values.couponType, amount };
}

export interface BatchDialogProps {
  kind: BatchKind;
  isOpen: boolean;
  onClose: () => void;
  /** Issues the batch; a refusal is shown on the form. */
  onSubmit: (body: ReturnType<typeof batchBody>) => Promise<void>;
}

export function BatchDialog({ kind, isOpen, onClose, onSubmit }: BatchDialogProps) {
  const { t } = useTranslation('vouchers');
  return (
    <Dialog isOpen={isOpen} onClose={onClose} className="jc-vch-dialog" title={t(`${kind}.issueTitle`)}>
      {isOpen && <BatchFormBody kind={kind} onDone={onClose} onSubmit={onSubmit} />}
    </Dialog>
  );
}

function Field({ name, control, label, children }: { name: FieldPath<BatchValues>; control: Control<BatchValues>; label: string;
  children: (field: { value: unknown; onChange: (value: unknown) => void; onBlur: () => void; invalid: boolean }) => React.ReactNode }) {
  return (
    <Controller name={name} control={control} render={({ field, fieldState }) => (
      <FormGroup label={label} labelFor={`jc-vch-${name}`} intent={fieldState.error ? 'danger' : 'none'}
        helperText={fieldState.error?.message}>
        {children({ value: field.value, onChange: field.onChange, onBlur: field.onBlur, invalid: Boolean(fieldState.error) })}
      </FormGroup>
    )} />
  );
}

function BatchFormBody({ kind, onDone, onSubmit }: { kind: BatchKind; onDone: () => void;
  onSubmit: BatchDialogProps['onSubmit'] }) {
  const { t } = useTranslation('vouchers');
  const schema = useMemo(() => batchSchema(t, kind), [t, kind]);
  const references = useReferences();
  const cnyWhole = editionConfig().edition === 'domestic';
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { control, handleSubmit, setError, watch } = useForm<BatchValues>({
    ...LIVE_VALIDATION,
    resolver: zodResolver(schema),
    defaultValues: { prefix: '', count: 10, couponType: COUPON_TYPE.amount, amount: 10, levelId: 0, timeLength: 12,
      activityId: null, startDate: today(0), endDate: today(30), remark: '' },
  });
  const couponType = watch('couponType');
  const submit = handleSubmit(async (values) => {
    setFormError(null);
    setBusy(true);
    try {
      await onSubmit(batchBody(values, kind, cnyWhole));
      onDone();
    } catch (error) {
      setFormError(showError(error, setError, FIELDS, BY_FIELD, t));
    } finally {
      setBusy(false);
    }
  });
  const numberInput = (name: string, field: { value: unknown; onChange: (value: unknown) => void; onBlur: () => void; invalid: boolean },
    step = '1') => (
    <InputGroup id={`jc-vch-${name}`} type="number" step={step} value={String(field.value ?? '')} data-testid={`batch-${name}`}
      intent={field.invalid ? 'danger' : 'none'} onBlur={field.onBlur}
      onChange={(event) => field.onChange(event.target.value === '' ? Number.NaN : Number(event.target.value))} />
  );

  return (
    <form onSubmit={submit} noValidate data-testid={`batch-form-${kind}`}>
      <DialogBody>
        {formError && <Callout intent="danger" className="jc-redeem-error">{formError}</Callout>}
        <div className="jc-vch-row">
          <Field name="prefix" control={control} label={t('field.prefix')}>
            {(field) => <InputGroup id="jc-vch-prefix" value={String(field.value)} maxLength={4} data-testid="batch-prefix"
              intent={field.invalid ? 'danger' : 'none'} onBlur={field.onBlur}
              onChange={(event) => field.onChange(event.target.value)} />}
          </Field>
          <Field name="count" control={control} label={t('field.count')}>{(field) => numberInput('count', field)}</Field>
        </div>
        {kind === 'coupons' ? (
          <div className="jc-vch-row">
            <Field name="couponType" control={control} label={t('field.couponType')}>
              {(field) => <HTMLSelect id="jc-vch-couponType" fill value={String(field.value)} data-testid="batch-couponType"
                onChange={(event) => field.onChange(Number(event.target.value))}
                options={[{ value: COUPON_TYPE.amount, label: t('couponType.1') }, { value: COUPON_TYPE.percent, label: t('couponType.2') }]} />}
            </Field>
            <Field name="amount" control={control}
              label={couponType === COUPON_TYPE.percent ? t('field.percentOff') : t('field.amountOff')}>
              {(field) => numberInput('amount', field, couponType === COUPON_TYPE.percent || cnyWhole ? '1' : '0.01')}
            </Field>
          </div>
        ) : (
          <div className="jc-vch-row">
            <Field name="levelId" control={control} label={t('field.level')}>
              {(field) => <HTMLSelect id="jc-vch-levelId" fill value={String(field.value || '')} data-testid="batch-levelId"
                onChange={(event) => field.onChange(Number(event.target.value))}
                options={[{ value: '', label: t('field.chooseLevel') },
                  ...(references.data?.levels ?? []).map((level) => ({ value: level.id, label: level.name }))]} />}
            </Field>
            <Field name="timeLength" control={control} label={t('field.months')}>{(field) => numberInput('timeLength', field)}</Field>
          </div>
        )}
        <div className="jc-vch-row">
          <Field name="startDate" control={control} label={t('field.start')}>
            {(field) => <InputGroup id="jc-vch-startDate" type="date" value={String(field.value)} data-testid="batch-start"
              onChange={(event) => field.onChange(event.target.value)} />}
          </Field>
          <Field name="endDate" control={control} label={t('field.end')}>
            {(field) => <InputGroup id="jc-vch-endDate" type="date" value={String(field.value)} data-testid="batch-end"
              intent={field.invalid ? 'danger' : 'none'} onChange={(event) => field.onChange(event.target.value)} />}
          </Field>
        </div>
        <Field name="activityId" control={control} label={t('field.activity')}>
          {(field) => <HTMLSelect id="jc-vch-activityId" fill value={String(field.value ?? '')} data-testid="batch-activity"
            onChange={(event) => field.onChange(event.target.value === '' ? null : Number(event.target.value))}
            options={[{ value: '', label: t('field.noActivity') },
              ...(references.data?.activities ?? []).map((activity) => ({ value: activity.id, label: activity.name }))]} />}
        </Field>
        <Field name="remark" control={control} label={kind === 'coupons' ? t('field.remarkRequired') : t('field.remark')}>
          {(field) => <TextArea id="jc-vch-remark" fill value={String(field.value)} data-testid="batch-remark"
            intent={field.invalid ? 'danger' : 'none'} onBlur={field.onBlur}
            onChange={(event) => field.onChange(event.target.value)} />}
        </Field>
      </DialogBody>
      <DialogFooter actions={<>
        <Button text={t('form.cancel')} onClick={onDone} />
        <Button type="submit" intent="primary" text={t(`${kind}.issue`)} loading={busy} data-testid="batch-submit" />
      </>} />
    </form>
  );
}
