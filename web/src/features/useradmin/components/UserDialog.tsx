import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_TYPES, TYPES_OF_ROLE, addUser, modifyUser, useUserChange, type ManagedUser, type SystemRole } from '../api/users';
import { userFormSchema, type UserForm } from '../userForm';
import { showError } from '@/lib/serverErrors';

interface UserDialogProps {
  /** The account to edit, 'new' to add one; null: closed. */
  user: ManagedUser | 'new' | null;
  /** The roles an account may be given. */
  roles: readonly SystemRole[];
  onClose: () => void;
  /** After adding: the password the server made, when the operator left it empty. */
  onAdded?: (user: ManagedUser, password: string | null) => void;
}

/** Adds an account (user name, password, role) or edits one (real name, contacts, company, type, role). */
export function UserDialog({ user, roles, onClose, onAdded }: UserDialogProps) {
  const { t } = useTranslation('useradmin');
  return (
    <Dialog isOpen={user !== null} onClose={onClose} className="jc-ua-dialog"
      title={user === 'new' ? t('addTitle') : t('editTitle', { name: user?.userName ?? '' })}>
      {user !== null && <UserFormBody user={user === 'new' ? null : user} roles={roles} onDone={onClose} onAdded={onAdded} />}
    </Dialog>
  );
}

const FIELDS = ['userName', 'accountPassword', 'realName', 'phone', 'email', 'company', 'accountType', 'roleCode'] as const;
const blank = (v: string) => (v.trim() === '' ? null : v.trim());

function UserFormBody({ user, roles, onDone, onAdded }: { user: ManagedUser | null; roles: readonly SystemRole[];
  onDone: () => void; onAdded?: (user: ManagedUser, password: string | null) => void }) {
  const { t } = useTranslation('useradmin');
  const adding = user === null;
  const schema = useMemo(() => userFormSchema(t, adding), [t, adding]);
  const save = useUserChange((values: UserForm) => {
    const fields = { realName: blank(values.realName), phone: blank(values.phone), email: blank(values.email),
      company: blank(values.company), accountType: values.accountType, roleCode: values.roleCode };
    return adding
      ? addUser({ ...fields, userName: values.userName, accountPassword: values.accountPassword || null })
      : modifyUser(user.id, fields).then((saved) => ({ ...saved, password: null }));
  });
  const [formError, setFormError] = useState<string | null>(null);
  const { control, handleSubmit, setError, setValue, watch } = useForm<UserForm>({
    resolver: zodResolver(schema), mode: 'onChange',
    defaultValues: {
      userName: user?.userName ?? '', accountPassword: '', realName: user?.realName ?? '', phone: user?.phone ?? '',
      email: user?.email ?? '', company: user?.company ?? '', accountType: user?.accountType ?? 1,
      roleCode: user?.roleCode ?? 'customer_personal',
    },
  });
  const roleCode = watch('roleCode');
  const types = TYPES_OF_ROLE[roleCode] ?? ACCOUNT_TYPES;
  const submit = handleSubmit((values) => {
    setFormError(null);
    save.mutate(values, {
      onSuccess: (saved) => {
        if (adding) onAdded?.(saved, saved.password);
        onDone();
      },
      onError: (error) => setFormError(showError(error, setError, FIELDS, {}, t)),
    });
  });
  const text = (name: 'userName' | 'accountPassword' | 'realName' | 'phone' | 'email' | 'company', hint?: string,
    extra: { type?: string; autoComplete?: string; required?: boolean } = {}) => (
    <Controller name={name} control={control} render={({ field: { ref, ...field }, fieldState }) => (
      <FormGroup label={t(`field.${name}`)} labelFor={`ua-${name}`} labelInfo={extra.required ? t('required') : undefined}
        intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message ?? hint}>
        <InputGroup {...field} id={`ua-${name}`} inputRef={ref} type={extra.type} autoComplete={extra.autoComplete ?? 'off'}
          intent={fieldState.error ? 'danger' : 'none'} data-testid={`ua-${name}`} />
      </FormGroup>
    )} />
  );
  return (
    <form onSubmit={(e) => void submit(e)} data-testid="ua-form">
      <DialogBody>
        {adding && text('userName', t('hint.userName'), { required: true })}
        {adding && text('accountPassword', t('hint.password'), { type: 'password', autoComplete: 'new-password' })}
        <div className="jc-ua-pair">
          <Controller name="roleCode" control={control} render={({ field, fieldState }) => (
            <FormGroup label={t('field.roleCode')} labelFor="ua-roleCode" labelInfo={t('required')}
              intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message}>
              <HTMLSelect id="ua-roleCode" fill value={field.value} data-testid="ua-roleCode"
                onChange={(e) => {
                  field.onChange(e.currentTarget.value);
                  const allowed = TYPES_OF_ROLE[e.currentTarget.value] ?? [];
                  if (allowed.length > 0) setValue('accountType', allowed[0]!, { shouldValidate: true });
                }}>
                {roles.filter((r) => r.roleCode in TYPES_OF_ROLE).map((r) => (
                  <option key={r.roleCode} value={r.roleCode}>{r.roleName}</option>
                ))}
              </HTMLSelect>
            </FormGroup>
          )} />
          <Controller name="accountType" control={control} render={({ field, fieldState }) => (
            <FormGroup label={t('field.accountType')} labelFor="ua-accountType" labelInfo={t('required')}
              intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message}>
              <HTMLSelect id="ua-accountType" fill value={field.value} data-testid="ua-accountType"
                onChange={(e) => field.onChange(Number(e.currentTarget.value))}>
                {types.map((type) => <option key={type} value={type}>{t(`type.${type}`)}</option>)}
              </HTMLSelect>
            </FormGroup>
          )} />
        </div>
        {text('realName')}
        <div className="jc-ua-pair">
          {text('phone', undefined, { type: 'tel' })}
          {text('email', undefined, { type: 'email' })}
        </div>
        {text('company')}
        {formError && <Callout intent="danger" data-testid="ua-form-error">{formError}</Callout>}
      </DialogBody>
      <DialogFooter actions={<>
        <Button text={t('cancel')} onClick={onDone} />
        <Button type="submit" intent="primary" text={t('save')} loading={save.isPending} data-testid="ua-save" />
      </>} />
    </form>
  );
}
