import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, Icon, RadioCard, SegmentedControl, TextArea } from '@blueprintjs/core';
import { DisableIcon, ErrorIcon, TakeActionIcon, TickCircleIcon, TimeIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState, type JSX } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useRevalidateOnLanguageChange } from '@/hooks/useRevalidateOnLanguageChange';
import { showError } from '@/lib/serverErrors';
import { ApiError } from '@/lib/http';
import { notify } from '@/lib/notify';
import { DEFER, DEFER_CHOICES, DEFERRED, useDealAlarm, type Alarm, type Handling } from '@/lib/api/alarms';
import { backAt, DEAL_DEFAULTS, DEAL_FIELDS, dealBody, dealSchema, RESULT_MAX, resultOf, type DealForm } from '../dealSchema';
import { formatInstant } from '@/lib/units';
import { alarmValue, delayText, lengthOf, probeKey } from '@/lib/alarmValues';
import { KindTag, LevelTag, StateTag } from './AlarmTags';
import { LIVE_VALIDATION } from '@/lib/forms';
import { clearingEmoji } from '@/lib/clearEmoji';
import { useSigning } from '@/components/SignatureDialog';

/** The server's code for an alarm someone has handled already (src/core/shared/errors.py). */
export const ALREADY_HANDLED = 1011;

const CHOICES: readonly { handling: Handling; key: 'approve' | 'refuse' | 'defer'; icon: JSX.Element }[] = [
  { handling: 1, key: 'approve', icon: <TickCircleIcon /> },
  { handling: 2, key: 'refuse', icon: <DisableIcon /> },
  { handling: 3, key: 'defer', icon: <TimeIcon /> },
];

export interface DealDialogProps {
  /** The untreated or deferred alarm to handle; nothing shows without one. */
  alarm: Alarm | null;
  /** Closes the dialog (after handling, or on cancel). */
  onClose: () => void;
}

/** Approve or refuse an untreated or deferred alarm with a short result, once; or defer it for a chosen delay. */
export function DealDialog({ alarm, onClose }: DealDialogProps) {
  const { t } = useTranslation('messages');
  return (
    <Dialog
      isOpen={alarm !== null}
      onClose={onClose}
      title={t('deal.title')}
      icon={<TakeActionIcon />}
      className="jc-msg-deal-dialog"
      canOutsideClickClose={false}
    >
      {alarm && <DealFields key={alarm.id} alarm={alarm} onClose={onClose} />}
    </Dialog>
  );
}

function DealFields({ alarm, onClose }: { alarm: Alarm; onClose: () => void }) {
  const { t, i18n } = useTranslation('messages');
  const resolver = useMemo(() => zodResolver(dealSchema(t)), [t]);
  const form = useForm<DealForm>({ ...LIVE_VALIDATION, resolver, defaultValues: DEAL_DEFAULTS });
  useRevalidateOnLanguageChange(form);
  const deal = useDealAlarm();
  const signing = useSigning();
  const [failure, setFailure] = useState<string | null>(null);
  const [handledElsewhere, setHandledElsewhere] = useState(false);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const body = dealBody(alarm.id, values);
    const choice = CHOICES.find((c) => c.handling === body.handling)!;
    let dealt: Alarm | null;
    try {
      // Where FDA is on for the device, the handling is signed with a reason (the result, unless changed).
      dealt = await signing.signIfNeeded(
        {
          label: [t(`deal.${choice.key}`), alarm.deviceName, t(probeKey(alarm.probe)), formatInstant(alarm.raisedAt, i18n.language)].join(' · '),
          recordType: 'alarm',
          meaning: 'responsible',
          reason: body.result ?? '',
          reasonRequired: true,
        },
        (signature) => deal.mutateAsync(signature ? { ...body, signature } : body),
        { key: `device:${alarm.deviceId}` },
      );
    } catch (error) {
      if (error instanceof ApiError && error.code === ALREADY_HANDLED) setHandledElsewhere(true);
      setFailure(showError(error, form.setError, DEAL_FIELDS, {}, t));
      return;
    }
    if (dealt === null) return; // the signer cancelled: nothing was handled
    notify.success(
      dealt.deferredUntil
        ? t('defer.done', { time: formatInstant(dealt.deferredUntil, i18n.language, false) })
        : t('deal.done'),
    );
    onClose();
  });

  const result = form.watch('result');
  const used = lengthOf(resultOf(result) ?? '');
  const deferring = form.watch('handling') === DEFER;

  return (
    <>
      {signing.dialog}
      <form onSubmit={submit} noValidate data-testid="deal-dialog" aria-label={t('deal.title')}>
        <DialogBody>
          <AlarmSummary alarm={alarm} />
          <Controller
            name="handling"
            control={form.control}
            render={({ field, fieldState }) => (
              <FormGroup
                label={<span id="deal-handling-label">{t('deal.handling')}</span>}
                intent={fieldState.error ? 'danger' : 'none'}
                helperText={fieldState.error?.message}
                className="jc-msg-deal-handling"
              >
                <div role="radiogroup" aria-labelledby="deal-handling-label" className="jc-msg-deal-choices">
                  {CHOICES.map((choice) => (
                    <RadioCard
                      key={choice.handling}
                      checked={field.value === choice.handling}
                      onChange={() => field.onChange(choice.handling)}
                      value={String(choice.handling)}
                      inputProps={{ name: 'handling', 'aria-label': t(`deal.${choice.key}`) }}
                      inputRef={choice.handling === 1 ? field.ref : undefined}
                      className={`jc-msg-deal-choice jc-msg-deal-choice--${choice.key}`}
                      data-testid={`deal-${choice.key}`}
                      showAsSelectedWhenChecked
                      compact
                    >
                      <span className="jc-msg-deal-choice-text">
                        <span className="jc-msg-deal-choice-name">
                          <Icon icon={choice.icon} size={14} />
                          {t(`deal.${choice.key}`)}
                        </span>
                        <span className="jc-msg-deal-choice-hint">{t(`deal.${choice.key}Hint`)}</span>
                      </span>
                    </RadioCard>
                  ))}
                </div>
              </FormGroup>
            )}
          />
          {deferring && (
            <Controller
              name="deferMinutes"
              control={form.control}
              render={({ field, fieldState }) => (
                <FormGroup
                  label={<span id="deal-delay-label">{t('defer.delay')}</span>}
                  intent={fieldState.error ? 'danger' : 'none'}
                  helperText={
                    fieldState.error?.message ??
                    (field.value !== null && (
                      <span data-testid="defer-back-at">
                        {t('defer.backAt', { time: formatInstant(backAt(field.value).toISOString(), i18n.language, false) })}
                      </span>
                    ))
                  }
                  className="jc-msg-deal-delay"
                >
                  <SegmentedControl
                    aria-labelledby="deal-delay-label"
                    value={field.value === null ? undefined : String(field.value)}
                    onValueChange={(value) => field.onChange(Number(value))}
                    options={DEFER_CHOICES.map((minutes) => ({ value: String(minutes), label: delayText(t, minutes) }))}
                    data-testid="defer-delay"
                  />
                </FormGroup>
              )}
            />
          )}
          <Controller
            name="result"
            control={form.control}
            render={({ field: { ref, ...field }, fieldState }) => (
              <FormGroup
                label={t('deal.result')}
                labelFor="deal-result"
                intent={fieldState.error ? 'danger' : 'none'}
                helperText={
                  <span className="jc-msg-deal-helper">
                    <span id="deal-result-help">{fieldState.error?.message}</span>
                    <span className={`jc-msg-deal-counter${used > RESULT_MAX ? ' is-over' : ''}`} data-testid="deal-counter">
                      {t('deal.counter', { count: used, max: RESULT_MAX })}
                    </span>
                  </span>
                }
              >
                <TextArea
                  {...field}
                  onChange={clearingEmoji(field.onChange)}
                  id="deal-result"
                  inputRef={ref}
                  fill
                  rows={3}
                  placeholder={t('deal.resultPlaceholder')}
                  intent={fieldState.error ? 'danger' : 'none'}
                  aria-invalid={fieldState.error ? true : undefined}
                  aria-describedby="deal-result-help"
                  data-testid="deal-result"
                />
              </FormGroup>
            )}
          />
          {failure && (
            <Callout intent="danger" icon={<ErrorIcon />} compact role="alert" data-testid="deal-error">
              {failure}
            </Callout>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('deal.cancel')} onClick={onClose} />
              <Button
                type="submit"
                intent="primary"
                text={t('deal.submit')}
                loading={form.formState.isSubmitting}
                disabled={handledElsewhere}
                data-testid="deal-submit"
              />
            </>
          }
        >
          <span className="jc-msg-deal-once">{t('deal.once')}</span>
        </DialogFooter>
      </form>
    </>
  );
}

/** What is being handled: the device, the excursion and when it was raised. */
function AlarmSummary({ alarm }: { alarm: Alarm }) {
  const { t, i18n } = useTranslation('messages');
  return (
    <div className="jc-msg-summary" data-testid="deal-summary">
      <div className="jc-msg-summary-head">
        <span className="jc-msg-device-name">{alarm.deviceName}</span>
        <span className="jc-msg-guid">{alarm.deviceGuid}</span>
      </div>
      <div className="jc-msg-summary-tags">
        <span className="jc-msg-probe">{t(probeKey(alarm.probe))}</span>
        <KindTag kind={alarm.kind} />
        <LevelTag alarm={alarm} />
        {alarm.state === DEFERRED && <StateTag alarm={alarm} />}
      </div>
      <dl className="jc-msg-summary-facts">
        <div>
          <dt>{t('column.value')}</dt>
          <dd>{alarmValue(alarm, alarm.value)}</dd>
        </div>
        <div>
          <dt>{t('column.limit')}</dt>
          <dd>{alarmValue(alarm, alarm.limitValue)}</dd>
        </div>
        <div>
          <dt>{t('column.extreme')}</dt>
          <dd>{alarmValue(alarm, alarm.extremeValue)}</dd>
        </div>
        <div>
          <dt>{t('filter.raised')}</dt>
          <dd>{formatInstant(alarm.raisedAt, i18n.language)}</dd>
        </div>
      </dl>
    </div>
  );
}
