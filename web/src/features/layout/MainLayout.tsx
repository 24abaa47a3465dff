import { Button, Navbar } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useNavigate } from 'react-router';
import { logout } from '@/app/effects';
import { ROUTES } from '@/app/routes';
import { useSession } from '@/lib/session';

/** The console's frame: header, menu built from the scene's permissions, content. */
export function MainLayout() {
  const { t } = useTranslation();
  const { info, scenePermissions, sceneId } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const held = new Set(scenePermissions);
  const items = ROUTES.filter((r) => r.menu?.some((m) => m.scene === sceneId) && r.permissions?.some((p) => held.has(p)));
  return (
    <div className="jc-main-layout">
      <Navbar>
        <Navbar.Group>
          <Navbar.Heading>{t('app:appName')}</Navbar.Heading>
        </Navbar.Group>
        <Navbar.Group align="right">
          <span data-testid="user-name">{info?.baseAccount.userName}</span>
          <Button
            variant="minimal"
            icon="log-out"
            onClick={async () => {
              await logout(queryClient);
              navigate('/user/login');
            }}
          />
        </Navbar.Group>
      </Navbar>
      <nav>
        {items.map((r) => (
          <Link key={r.name} to={r.path}>
            {t(`app:route.${r.name}`)}
          </Link>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}
