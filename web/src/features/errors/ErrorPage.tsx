import { Button, NonIdealState } from '@blueprintjs/core';
import { ErrorIcon, HomeIcon, LockIcon, SearchIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export type ErrorCode = 403 | 404 | 500;

const ICONS = { 403: <LockIcon />, 404: <SearchIcon />, 500: <ErrorIcon /> } as const;

/** The 403, 404 and 500 pages, each with a way back home (spec seed 000 sections 2, 6 and 8). */
export function ErrorPage({ code }: { code: ErrorCode }) {
  const { t } = useTranslation('errors');
  const navigate = useNavigate();
  return (
    <div className="jc-error-page" data-testid={`error-${code}`}>
      <NonIdealState
        icon={ICONS[code]}
        title={String(code)}
        description={t(`page${code}`)}
        action={
          <Button intent="primary" icon={<HomeIcon />} onClick={() => navigate('/')}>
            {t('backHome')}
          </Button>
        }
      />
    </div>
  );
}

