import { Button, Card, FormGroup, H3, InputGroup } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { login } from '@/features/account/api/session';
import { api } from '@/lib/http';
import { session } from '@/lib/session';
import { loginSchema, type LoginForm } from './schemas';

export default function LoginPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const form = useForm<LoginForm>({ resolver: zodResolver(loginSchema(t)), defaultValues: { userName: '', accountPassword: '' } });

  const submit = form.handleSubmit(async (values) => {
    try {
      const issued = await login({ userName: values.userName, accountPassword: values.accountPassword, loginType: 1 });
      session.signedIn(issued.token);
      api.sessionStarted();
      navigate(params.get('redirect') || '/', { replace: true });
    } catch {
      // the client has shown the server's answer
    }
  });

  return (
    <div className="jc-login">
      <Card className="jc-login-card" elevation={2}>
        <H3>{t('title')}</H3>
        <form onSubmit={submit} noValidate>
          <Controller
            name="userName"
            control={form.control}
            render={({ field, fieldState }) => (
              <FormGroup label={t('userName')} labelFor="userName" intent={fieldState.error ? 'danger' : 'none'}
                helperText={fieldState.error?.message}>
                <InputGroup id="userName" {...field} inputRef={field.ref} autoComplete="username" large />
              </FormGroup>
            )}
          />
          <Controller
            name="accountPassword"
            control={form.control}
            render={({ field, fieldState }) => (
              <FormGroup label={t('password')} labelFor="accountPassword" intent={fieldState.error ? 'danger' : 'none'}
                helperText={fieldState.error?.message}>
                <InputGroup id="accountPassword" type="password" {...field} inputRef={field.ref}
                  autoComplete="current-password" large />
              </FormGroup>
            )}
          />
          <Button type="submit" intent="primary" fill size="large" loading={form.formState.isSubmitting}>
            {t('submit')}
          </Button>
        </form>
      </Card>
    </div>
  );
}
