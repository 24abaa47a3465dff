/**
 * Redeem a prepaid recharge card (issue 18): its number and secret, for a device the caller may
 * recharge (fixed when opened from the recharge drawer, chosen here in the activity centre). The
 * device gets the card's level for its months as a paid order would give it. A wrong number or
 * secret is said under the secret; five wrong tries lock the number for 15 minutes (the server's
 * message says so); a level not sold for the device's type is said under the device.
 */
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, Spinner } from '@blueprintjs/core';
import { SearchIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useDebouncedValue } from '@/hooks/useDebouncedValue';
import { LIVE_VALIDATION } from '@/lib/forms';
import { notify } from '@/lib/notify';
import { showError } from '@/lib/serverErrors';
import type { RedeemCardProps } from '@/lib/slots';
import { DEVICE_NAME_MAX, fetchMyDevices, redeemCard, VOUCHER_CODES, voucherKeys, type MyDevice } from '../api/vouchers';
import '../vouchers.css';

const TEXT_MAX = 40;
const TYPING_PAUSE_MS = 300;

export function RedeemCardDialog({ isOpen, onClose, device = null }: RedeemCardProps) {
  const { t } = useTranslation('vouchers');
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t('redeem.title')} className="jc-redeem-dialog">
      {isOpen && <RedeemForm device={device} onDone={onClose} />}
    </Dialog>
  );
}

function formSchema(t: (key: string, options?: Record<string, unknown>) => string) {
  const text = z.string().trim().min(1, t('form.required')).max(TEXT_MAX, t('form.max', { max: TEXT_MAX }));
  return z.object({
    deviceId: z.number({ message: t('redeem.chooseDevice') }).int().positive(t('redeem.chooseDevice')),
    cardNumber: text,
    secret: text,
  });
}
type RedeemForm = z.infer<ReturnType<typeof formSchema>>;
const FIELDS = ['deviceId', 'cardNumber', 'secret'] as const;
const BY_CODE = {
  [VOUCHER_CODES.cardRefused]: 'secret', [VOUCHER_CODES.cardLocked]: 'cardNumber',
  [VOUCHER_CODES.cardUsed]: 'cardNumber', [VOUCHER_CODES.cardNotValid]: 'cardNumber',
  [VOUCHER_CODES.cardNotForDevice]: 'deviceId',
} as const;

function RedeemForm({ device, onDone }: { device: RedeemCardProps['device']; onDone: () => void }) {
  const { t } = useTranslation('vouchers');
  const queryClient = useQueryClient();
  const schema = useMemo(() => formSchema(t), [t]);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // the picker asks the server for the devices whose name holds what was typed: an account of 5,000
  // devices finds its device 5,000 as easily as its first
  const [typed, setTyped] = useState('');
  const name = useDebouncedValue(typed.trim(), TYPING_PAUSE_MS);
  const devices = useQuery({
    queryKey: ['vouchers', 'devices', name] as const,
    queryFn: () => fetchMyDevices(name),
    enabled: device === null,
    placeholderData: keepPreviousData,
  });
  const [chosen, setChosen] = useState<MyDevice | null>(null);
  const matches = devices.data ?? [];
  const listed = chosen && !matches.some((d) => d.deviceId === chosen.deviceId) ? [chosen, ...matches] : matches;
  const { control, handleSubmit, setError } = useForm<RedeemForm>({
    ...LIVE_VALIDATION,
    resolver: zodResolver(schema),
    defaultValues: { deviceId: device?.deviceId ?? 0, cardNumber: '', secret: '' },
  });
  const submit = handleSubmit(async (values) => {
    setFormError(null);
    setBusy(true);
    try {
      const done = await redeemCard(values);
      notify.success(t('redeem.done', { level: done.levelName, count: done.timeLength }));
      void queryClient.invalidateQueries({ queryKey: ['devices'] });
      void queryClient.invalidateQueries({ queryKey: ['recharge'] });
      void queryClient.invalidateQueries({ queryKey: voucherKeys.all });
      onDone();
    } catch (error) {
      setFormError(showError(error, setError, FIELDS, BY_CODE, t));
    } finally {
      setBusy(false);
    }
  });

  return (
    <form onSubmit={submit} noValidate data-testid="redeem-form">
      <DialogBody>
        {formError && <Callout intent="danger" className="jc-redeem-error">{formError}</Callout>}
        <Controller name="deviceId" control={control} render={({ field, fieldState }) => (
          <FormGroup label={t('redeem.device')} labelFor="jc-redeem-device" intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message}>
            {device ? (
              <InputGroup id="jc-redeem-device" value={device.deviceName} readOnly data-testid="redeem-device-name" />
            ) : (
              <div className="jc-redeem-picker">
                <InputGroup type="search" leftIcon={<SearchIcon />} value={typed} maxLength={DEVICE_NAME_MAX}
                  placeholder={t('redeem.searchDevice')} aria-label={t('redeem.searchDevice')}
                  rightElement={devices.isFetching ? <Spinner size={16} /> : undefined}
                  onChange={(event) => setTyped(event.currentTarget.value)} data-testid="redeem-device-search" />
                <HTMLSelect id="jc-redeem-device" fill value={field.value || ''} data-testid="redeem-device"
                  onChange={(event) => {
                    const id = Number(event.target.value);
                    setChosen(listed.find((d) => d.deviceId === id) ?? null);
                    field.onChange(id);
                  }}
                  options={[{ value: '', label: matches.length === 0 && devices.data ? t('redeem.noDevice') : t('redeem.chooseDevice') },
                    ...listed.map((d) => ({ value: d.deviceId, label: `${d.deviceName} · ${d.deviceGuid}` }))]} />
              </div>
            )}
          </FormGroup>
        )} />
        <Controller name="cardNumber" control={control} render={({ field, fieldState }) => (
          <FormGroup label={t('redeem.cardNumber')} labelFor="jc-redeem-number" intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message}>
            <InputGroup id="jc-redeem-number" {...field} autoComplete="off" spellCheck={false} data-testid="redeem-number"
              intent={fieldState.error ? 'danger' : 'none'} />
          </FormGroup>
        )} />
        <Controller name="secret" control={control} render={({ field, fieldState }) => (
          <FormGroup label={t('redeem.secret')} labelFor="jc-redeem-secret" intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message}>
            <InputGroup id="jc-redeem-secret" {...field} autoComplete="off" spellCheck={false} data-testid="redeem-secret"
              intent={fieldState.error ? 'danger' : 'none'} />
          </FormGroup>
        )} />
      </DialogBody>
      <DialogFooter actions={<>
        <Button text={t('form.cancel')} onClick={onDone} />
        <Button type="submit" intent="primary" text={t('redeem.submit')} loading={busy} data-testid="redeem-submit" />
      </>} />
    </form>
  );
}
