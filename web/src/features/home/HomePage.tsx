import { Card, H2 } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/lib/session';

export default function HomePage() {
  const { t } = useTranslation('home');
  const { info } = useSession();
  return (
    <Card className="jc-home" data-testid="home-page">
      <H2>{t('welcome', { name: info?.baseAccount.userName ?? '' })}</H2>
    </Card>
  );
}
