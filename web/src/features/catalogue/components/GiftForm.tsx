import { Button, Callout, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/http/index';
import { usePermissions } from '@/lib/permissions';
import { saveGift, useCatalogueChange, type GiftFields, type PackageDetail } from '../api/packages';
import { giftFormSchema, type GiftForm as GiftValues } from '../packageForm';

/** What a new device of the package's types gets: one of its levels for some months, SMS and voice
 * counts (until set: two months of its free level, as the platform always gave). */
export function GiftForm({ detail }: { detail: PackageDetail }) {
  const { t } = useTranslation('catalogue');
  const held = usePermissions();
  const schema = useMemo(() => giftFormSchema(t), [t]);
  const save = useCatalogueChange((fields: GiftFields) => saveGift(detail.package.id, fields));
  const [message, setMessage] = useState<{ intent: 'success' | 'danger'; text: string } | null>(null);
  const gift = detail.gift;
  const { control, handleSubmit, setError } = useForm<GiftValues>({
    resolver: zodResolver(schema), mode: 'onChange',
    defaultValues: { levelId: gift.levelId === null ? '' : String(gift.levelId), timeLength: String(gift.timeLength),
      smsCount: String(gift.smsCount), voiceCount: String(gift.voiceCount) },
  });
  const submit = handleSubmit((values) => {
    setMessage(null);
    save.mutate({ levelId: values.levelId ? Number(values.levelId) : null, timeLength: Number(values.timeLength),
      smsCount: Number(values.smsCount), voiceCount: Number(values.voiceCount) }, {
      onSuccess: () => setMessage({ intent: 'success', text: t('gift.saved') }),
      onError: (error) => {
        if (error instanceof ApiError && error.errors) {
          for (const [name, messages] of Object.entries(error.errors)) setError(name as never, { type: 'server', message: messages[0] });
        }
        setMessage({ intent: 'danger', text: error instanceof Error ? error.message : t('packages.failed') });
      },
    });
  });
  const editable = held.has('order.servicePackage:edit');
  const field = (name: 'timeLength' | 'smsCount' | 'voiceCount') => (
    <Controller name={name} control={control} render={({ field: f, fieldState }) => (
      <FormGroup label={t(`gift.${name}`)} labelFor={`gift-${name}`} intent={fieldState.error ? 'danger' : 'none'}
        helperText={fieldState.error?.message}>
        <InputGroup {...f} id={`gift-${name}`} inputRef={f.ref} inputMode="numeric" disabled={!editable}
          intent={fieldState.error ? 'danger' : 'none'} data-testid={`gift-${name}`} />
      </FormGroup>
    )} />
  );
  return (
    <form onSubmit={(e) => void submit(e)} className="jc-cat-gift" data-testid="gift-form">
      <p className="jc-cat-muted">{t(gift.configured ? 'gift.intro' : 'gift.default')}</p>
      <div className="jc-cat-grid">
        <Controller name="levelId" control={control} render={({ field: f, fieldState }) => (
          <FormGroup label={t('gift.level')} labelFor="gift-level" intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message}>
            <HTMLSelect {...f} id="gift-level" fill disabled={!editable} data-testid="gift-level"
              options={[{ value: '', label: t('gift.noLevel') },
                ...detail.levels.map((level) => ({ value: String(level.levelId), label: level.levelName }))]} />
          </FormGroup>
        )} />
        {field('timeLength')}
        {field('smsCount')}
        {field('voiceCount')}
      </div>
      {message && <Callout intent={message.intent} data-testid="gift-message">{message.text}</Callout>}
      {editable && <Button type="submit" intent="primary" text={t('save')} loading={save.isPending} data-testid="gift-save" />}
    </form>
  );
}
