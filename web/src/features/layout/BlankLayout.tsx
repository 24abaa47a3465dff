import { Outlet } from 'react-router';
import { useStoredLook } from './frame/useStoredLook';

/** Pages that stand on their own: sign-in, public pages, VIP service, release notes. */
export function BlankLayout() {
  useStoredLook();
  return (
    <main className="jc-blank-layout">
      <Outlet />
    </main>
  );
}
