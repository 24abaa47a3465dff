import { NonIdealState } from '@blueprintjs/core';
import { LockIcon } from '@blueprintjs/icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LAB_PERMISSION } from '@/lib/api/calibrationLab';
import { usePermissions } from '@/lib/permissions';

/**
 * The lab's pages for an account holding the lab's permission; any other is told it is not a lab
 * account and never makes the lab's calls (the server would refuse them, and a 403 ends the session).
 */
export function LabOnly({ children }: { children: ReactNode }) {
  const { t } = useTranslation('calibrationlab');
  if (usePermissions().has(LAB_PERMISSION)) return <>{children}</>;
  return (
    <div data-testid="not-lab">
      <NonIdealState icon={<LockIcon />} title={t('login.notLab')} description={t('login.notLabDetail')}
        action={<Link to="/calibration/admin/login">{t('login.title')}</Link>} />
    </div>
  );
}
