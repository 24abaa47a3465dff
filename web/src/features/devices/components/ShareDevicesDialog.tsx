import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { ShareIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import type { TFunction } from 'i18next';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { EndTimeField } from '@/components/EndTimeField';
import { SHARING_LIMITS, useShareDevices, useTemplates } from '@/lib/api/sharing';
import { clearingEmoji } from '@/lib/clearEmoji';
import { LIVE_VALIDATION } from '@/lib/forms';
import { notify } from '@/lib/notify';
import { accountFits, endTimeFits, endTimeInstant } from '@/lib/shareForm';
import { DeviceNames, type DeviceToDelete } from './DeleteDevicesDialog';
import './manage.css';

/** The share form, checked as the server checks it, in the user's language. */
export function shareFormSchema(t: TFunction) {
  return z.object({
    account: z.string().refine(accountFits,
      t('sharing.error.account', { min: SHARING_LIMITS.accountMin, max: SHARING_LIMITS.accountMax })),
    templateId: z.string().regex(/^\d+$/, t('sharing.error.template')),
    endTime: z.string().refine((value) => endTimeFits(value), t('sharing.error.endTime')),
  });
}
export type ShareForm = z.infer<ReturnType<typeof shareFormSchema>>;

interface ShareDevicesDialogProps {
  /** The devices to share (the caller holds the owner's rights on each); empty: closed. */
  devices: readonly DeviceToDelete[];
  onClose: () => void;
  onShared?: () => void;
}

/** Shares one device or many with a person, under a permission template, until an end time or for good. */
export function ShareDevicesDialog({ devices, onClose, onShared }: ShareDevicesDialogProps) {
  const { t } = useTranslation('devices');
  return (
    <Dialog isOpen={devices.length > 0} onClose={onClose} className="jc-add-dialog" icon={<ShareIcon />}
      title={t('sharing.title', { count: devices.length })}>
      {devices.length > 0 && <ShareFormBody devices={devices} onDone={onClose} onShared={onShared} />}
    </Dialog>
  );
}

function ShareFormBody({ devices, onDone, onShared }: { devices: readonly DeviceToDelete[]; onDone: () => void; onShared?: () => void }) {
  const { t } = useTranslation('devices');
  const schema = useMemo(() => shareFormSchema(t), [t]);
  const templates = useTemplates();
  const share = useShareDevices();
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit, setValue, watch } = useForm<ShareForm>({
    ...LIVE_VALIDATION, resolver: zodResolver(schema), defaultValues: { account: '', templateId: '', endTime: '' },
  });
  const templateId = watch('templateId');
  // The first template (the built-in "View only") is chosen until the user picks another.
  const first = templates.data?.[0]?.id;
  useEffect(() => {
    if (first !== undefined && !templateId) setValue('templateId', String(first));
  }, [first, templateId, setValue]);
  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const done = await share.mutateAsync({
        deviceIds: devices.map((device) => device.deviceId),
        account: values.account.trim(),
        templateId: Number(values.templateId),
        endTime: endTimeInstant(values.endTime),
      });
      notify.success(t('sharing.done', { name: done.account.userName, count: done.shared }));
      onShared?.();
      onDone();
    } catch (error) {
      setFailure(error instanceof Error && error.message ? error.message : t('sharing.error.failed'));
    }
  });
  return (
    <form onSubmit={(event) => void submit(event)} noValidate data-testid="share-dialog">
      <DialogBody>
        <DeviceNames devices={devices} />
        <Controller name="account" control={control} render={({ field: { ref, ...field }, fieldState }) => (
          <FormGroup label={t('sharing.account')} labelFor="share-account" labelInfo={t('info.required')}
            intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message ?? t('sharing.accountHint')}>
            <InputGroup {...field} onChange={clearingEmoji(field.onChange)} id="share-account" inputRef={ref} autoFocus
              maxLength={64} intent={fieldState.error ? 'danger' : 'none'} data-testid="share-account" />
          </FormGroup>
        )} />
        <Controller name="templateId" control={control} render={({ fieldState }) => (
          <FormGroup label={t('sharing.template')} labelFor="share-template" intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message ?? (
              <Link to="/consumer/sharer?tab=templates" data-testid="share-manage-templates">{t('sharing.manageTemplates')}</Link>
            )}>
            <HTMLSelect id="share-template" fill value={templateId} disabled={templates.data === undefined}
              onChange={(event) => setValue('templateId', event.currentTarget.value, { shouldValidate: true })}
              options={(templates.data ?? []).map((template) => ({ value: String(template.id), label: template.name }))}
              data-testid="share-template" />
          </FormGroup>
        )} />
        <Controller name="endTime" control={control} render={({ field, fieldState }) => (
          <EndTimeField id="share-end" value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
        )} />
        <p className="jc-share-note">{t('sharing.note')}</p>
        {failure && <Callout intent="danger" data-testid="share-error">{failure}</Callout>}
      </DialogBody>
      <DialogFooter actions={<>
        <Button text={t('info.cancel')} onClick={onDone} />
        <Button type="submit" intent="primary" icon={<ShareIcon />} text={t('sharing.confirm', { count: devices.length })}
          loading={share.isPending} disabled={templates.data === undefined}
          data-testid="share-confirm" />
      </>} />
    </form>
  );
}
