import { Outlet } from 'react-router';

/** Pages that stand on their own: sign-in, public and mobile pages. */
export function BlankLayout() {
  return (
    <main className="jc-blank-layout">
      <Outlet />
    </main>
  );
}
