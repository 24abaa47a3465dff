import { Button, Callout, FileInput, FormGroup, HTMLSelect } from '@blueprintjs/core';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { loadSessionPermissions } from '@/app/effects';
import { Avatar } from '@/components/Avatar';
import type { AccountInfo } from '@/lib/api/accountInfo';
import { IDENTITY_DICT, INDUSTRY_DICT, updateProfileIdentity, useDictionary, type ProfileDict } from '@/lib/api/profile';
import { notify } from '@/lib/notify';
import { showError, sortError } from '@/lib/serverErrors';
import { saveBaseInfo, uploadPhoto } from '../api/account';
import { Field } from './Field';

/** The server's limits (src/entrypoints/api/accounts/schemas.py, account_photos.py). */
export const PHOTO_TYPES = ['image/jpeg', 'image/png'];
export const PHOTO_MAX_BYTES = 1024 * 1024;
const FIELDS = ['realName', 'company', 'elitechIdentity', 'elitechIndustry'] as const;

interface ProfileValues {
  realName: string;
  company: string;
  elitechIdentity: string;
  elitechIndustry: string;
}

/** Picture, real name, company, identity and industry. */
export function ProfileForm({ info }: { info: AccountInfo }) {
  const { t } = useTranslation('account');
  const account = info.baseAccount;
  const form = useForm<ProfileValues>({
    defaultValues: {
      realName: account.realName ?? '',
      company: account.company ?? '',
      elitechIdentity: info.userProfile.elitechIdentity ?? '',
      elitechIndustry: info.userProfile.elitechIndustry ?? '',
    },
  });
  const [failure, setFailure] = useState<string | null>(null);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const realName = values.realName.trim();
    const company = values.company.trim();
    if (company && (company.length < 2 || company.length > 50)) {
      form.setError('company', { message: t('profile.companyRule') });
      return;
    }
    try {
      if (realName || company) await saveBaseInfo({ ...(realName ? { realName } : {}), ...(company ? { company } : {}) });
      if (values.elitechIdentity && values.elitechIndustry) {
        await updateProfileIdentity({ elitechIdentity: values.elitechIdentity, elitechIndustry: values.elitechIndustry });
      }
    } catch (error) {
      setFailure(showError(error, form.setError, FIELDS, {}, t));
      return;
    }
    notify.success(t('saved'));
    await loadSessionPermissions().catch(() => undefined);
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="jc-account-form" data-testid="profile-form">
      <PhotoPicker name={account.userName} photo={account.accountPhoto} />
      <dl className="jc-account-facts">
        <dt>{t('profile.userName')}</dt>
        <dd>{account.userName}</dd>
      </dl>
      <Field control={form.control} name="realName" label={t('profile.realName')} maxLength={20} autoComplete="name" />
      <Field control={form.control} name="company" label={t('profile.company')} maxLength={50} autoComplete="organization" />
      <DictSelect control={form.control} name="elitechIdentity" dict={IDENTITY_DICT} label={t('profile.identity')} />
      <DictSelect control={form.control} name="elitechIndustry" dict={INDUSTRY_DICT} label={t('profile.industry')} />
      {failure && <Callout intent="danger" compact>{failure}</Callout>}
      <Button type="submit" intent="primary" text={t('save')} loading={form.formState.isSubmitting} data-testid="profile-save" />
    </form>
  );
}

function DictSelect({ control, name, dict, label }: {
  control: ReturnType<typeof useForm<ProfileValues>>['control'];
  name: 'elitechIdentity' | 'elitechIndustry';
  dict: ProfileDict;
  label: string;
}) {
  const { t } = useTranslation('account');
  const items = useDictionary(dict);
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <FormGroup label={label} labelFor={name} intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message}>
          <HTMLSelect id={name} fill value={field.value} onChange={field.onChange} onBlur={field.onBlur} disabled={!items.data}>
            <option value="">{t('profile.choose')}</option>
            {items.data?.map((item) => (
              <option key={item.dataCode} value={item.dataCode}>{item.label}</option>
            ))}
          </HTMLSelect>
        </FormGroup>
      )}
    />
  );
}

/** The picture and a button to replace it; JPG and PNG up to 1 MB (the server checks the bytes too). */
function PhotoPicker({ name, photo }: { name: string; photo: string | null }) {
  const { t } = useTranslation('account');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const pick = async (file: File | undefined) => {
    setProblem(null);
    if (!file) return;
    if (!PHOTO_TYPES.includes(file.type)) return setProblem(t('photo.type'));
    if (file.size > PHOTO_MAX_BYTES) return setProblem(t('photo.size'));
    setBusy(true);
    try {
      await uploadPhoto(file);
      await loadSessionPermissions();
      notify.success(t('photo.saved'));
    } catch (error) {
      const sorted = sortError(error, ['file'] as const, {}, t);
      setProblem(sorted.fields.file ?? sorted.form);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="jc-account-photo">
      <Avatar name={name} photo={photo} size={72} />
      <FormGroup helperText={problem ?? t('photo.hint')} intent={problem ? 'danger' : 'none'} className="jc-account-photo-input">
        <FileInput
          fill
          text={busy ? t('photo.uploading') : t('photo.choose')}
          buttonText={t('photo.browse')}
          disabled={busy}
          inputProps={{ accept: '.jpg,.jpeg,.png,image/jpeg,image/png', 'aria-label': t('photo.choose'), ...({ 'data-testid': 'photo-input' } as object) }}
          onInputChange={(event) => {
            const input = event.currentTarget as HTMLInputElement;
            void pick(input.files?.[0]);
            input.value = '';
          }}
        />
      </FormGroup>
    </div>
  );
}
