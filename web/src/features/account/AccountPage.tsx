import { Card, Classes, H2, H4, Tab, Tabs } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/lib/session';
import { AccountTypeSection } from './components/AccountTypeSection';
import { CredentialsForm } from './components/CredentialsForm';
import { NotificationsForm } from './components/NotificationsForm';
import { PreferencesForm } from './components/PreferencesForm';
import { ProfileForm } from './components/ProfileForm';
import './account.css';

/** /consumer/info: the caller's own account: profile and picture, account type, preferences, sign-in details, notifications. */
export default function AccountPage() {
  const { t } = useTranslation('account');
  const { info } = useSession();
  if (!info) return null;
  return (
    <div className="jc-account" data-testid="account-page">
      <header className="jc-account-head">
        <H2>{t('title')}</H2>
        <p className={Classes.TEXT_MUTED}>{t('subtitle')}</p>
      </header>
      <div className="jc-account-grid">
        <Card className="jc-account-card" elevation={0}>
          <H4>{t('profile.title')}</H4>
          <ProfileForm info={info} />
        </Card>
        <Card className="jc-account-card" elevation={0}>
          <H4>{t('type.title')}</H4>
          <AccountTypeSection info={info} />
        </Card>
        <Card className="jc-account-card" elevation={0}>
          <H4>{t('preferences.title')}</H4>
          <PreferencesForm info={info} />
        </Card>
        <Card className="jc-account-card" elevation={0}>
          <H4>{t('security.title')}</H4>
          <Tabs id="account-security" renderActiveTabPanelOnly>
            <Tab id="password" title={t('security.password')} panel={<CredentialsForm kind="password" info={info} />} />
            <Tab id="phone" title={t('security.phone')} panel={<CredentialsForm kind="phone" info={info} />} />
            <Tab id="email" title={t('security.email')} panel={<CredentialsForm kind="email" info={info} />} />
          </Tabs>
        </Card>
        <Card className="jc-account-card" elevation={0}>
          <H4>{t('notifications.title')}</H4>
          <p className={Classes.TEXT_MUTED}>{t('notifications.text')}</p>
          <NotificationsForm />
        </Card>
      </div>
    </div>
  );
}
