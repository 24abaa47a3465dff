import { act, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DevicePermit, Greyed, Permit, PermitButton, PermitFull } from '@/components/Permit';
import { accountInfo, setUpI18n } from '@/test/harness';
import {
  ACTIONS,
  actionVisibility,
  buttonPermission,
  deviceVisibility,
  isButtonPermission,
  permitsAction,
  permitsButton,
  permitsFull,
  useButtonPermission,
  useFullPermission,
  usePermitted,
  type DevicePermissionEntry,
} from './permissions';
import { session } from './session';

const held = new Set(['device.list', 'device.list:add', 'device.list:export', 'notice.list:query', 'orphan:delete']);

describe('the action directive', () => {
  it('names button permissions as route:action', () => {
    expect(buttonPermission('device.list', 'add')).toBe('device.list:add');
    expect(ACTIONS).toEqual(['add', 'delete', 'edit', 'query', 'detail', 'enable', 'disable', 'import', 'export']);
  });

  it.each(ACTIONS.map((action) => [action, action === 'add' || action === 'export'] as const))(
    'permits device.list %s: %s',
    (action, permitted) => {
      expect(permitsAction(held, 'device.list', action)).toBe(permitted);
    },
  );

  it('needs the route permission as well as the action', () => {
    expect(permitsAction(held, 'orphan', 'delete')).toBe(false);
    expect(permitsAction(new Set(['device.list']), 'device.list', 'add')).toBe(false);
    expect(permitsAction(held, '', 'add')).toBe(false);
  });

  it.each([
    ['add', false, 'shown'],
    ['add', true, 'shown'],
    ['delete', false, 'hidden'],
    ['delete', true, 'greyed'],
  ] as const)('draws %s with show=%s as %s', (action, show, visibility) => {
    expect(actionVisibility(held, 'device.list', action, show)).toBe(visibility);
  });
});

describe('the full-name directive', () => {
  it.each([
    ['notice.list:query', true],
    ['device.list', true],
    ['notice.list', false],
    ['notice.list:add', false],
    ['', false],
  ])('%s: %s', (name, permitted) => {
    expect(permitsFull(held, name)).toBe(permitted);
  });
});

describe('the button directive', () => {
  it.each([
    ['device.list:add', true],
    ['device.list:export', true],
    ['device.list:delete', false],
    ['device.list', false],
    ['device.list:launch', false],
    [':add', false],
    ['a:b:add', false],
  ])('%s: %s', (name, permitted) => {
    expect(permitsButton(new Set([...held, 'device.list:launch', 'a:b:add', ':add']), name)).toBe(permitted);
  });

  it('recognises button permissions', () => {
    expect(isButtonPermission('waybill.list:import')).toBe(true);
    expect(isButtonPermission('waybill.list')).toBe(false);
    expect(isButtonPermission('waybill.list:')).toBe(false);
  });
});

describe('the device directive', () => {
  const entry = (setStatus: number, viewStatus: number): DevicePermissionEntry[] => [
    { permissionCode: 'other', setStatus: 1, viewStatus: 1 },
    { permissionCode: 'param.set', setStatus, viewStatus },
  ];

  it.each([
    [1, 1, 'shown'],
    [0, 1, 'greyed'],
    [0, 0, 'hidden'],
    [-1, 1, 'hidden'],
    [-1, 0, 'hidden'],
    [1, 0, 'hidden'],
    [2, 1, 'shown'],
    [0, 2, 'hidden'],
  ])('set %s, view %s: %s', (setStatus, viewStatus, visibility) => {
    expect(deviceVisibility(entry(setStatus, viewStatus), 'param.set')).toBe(visibility);
  });

  it('removes the element when the code is absent', () => {
    expect(deviceVisibility(entry(1, 1), 'param.remote')).toBe('hidden');
    expect(deviceVisibility([], 'param.set')).toBe('hidden');
    expect(deviceVisibility(null, 'param.set')).toBe('hidden');
    expect(deviceVisibility(undefined, 'param.set')).toBe('hidden');
  });
});

function signInWith(permissions: string[], scene: string[] = []) {
  act(() => session.loaded(accountInfo({}, { permissionRoutes: permissions }), 1, scene));
}

describe('hooks', () => {
  afterEach(() => session.clear());

  it('read the session and follow its changes', () => {
    signInWith(['device.list', 'device.list:add']);
    const { result } = renderHook(() => [
      usePermitted('device.list', 'add'),
      useFullPermission('notice.list:query'),
      useButtonPermission('device.list:add'),
    ]);
    expect(result.current).toEqual([true, false, true]);
    signInWith(['notice.list:query'], ['device.list', 'device.list:add']);
    expect(result.current).toEqual([true, true, true]);
    act(() => session.clear());
    expect(result.current).toEqual([false, false, false]);
  });
});

describe('components', () => {
  beforeAll(setUpI18n);
  afterEach(() => {
    session.clear();
    vi.restoreAllMocks();
  });

  it('Permit shows, hides, or greys out with show', () => {
    signInWith(['device.list', 'device.list:add']);
    render(
      <>
        <Permit route="device.list" action="add">
          <button type="button">Add</button>
        </Permit>
        <Permit route="device.list" action="delete">
          <button type="button">Delete</button>
        </Permit>
        <Permit route="device.list" action="export" show>
          <button type="button">Export</button>
        </Permit>
      </>,
    );
    expect(screen.getByRole('button', { name: 'Add' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    const exported = screen.getByRole('button', { name: 'Export' });
    expect(exported).toBeDisabled();
    expect(exported.parentElement).toHaveAttribute('aria-disabled', 'true');
    expect(exported.parentElement).toHaveAttribute('title', 'You do not have permission for this action');
  });

  it('a greyed element swallows clicks even when it cannot be disabled', () => {
    const onClick = vi.fn();
    render(
      <Greyed>
        <span role="link" tabIndex={0} onClick={onClick}>
          Open
        </span>
      </Greyed>,
    );
    fireEvent.click(screen.getByRole('link', { name: 'Open' }));
    fireEvent.keyDown(screen.getByRole('link', { name: 'Open' }), { key: 'Enter' });
    expect(onClick).not.toHaveBeenCalled();
    expect(screen.getByRole('link', { name: 'Open' })).toHaveAttribute('tabindex', '-1');
  });

  it('PermitFull checks the exact name', () => {
    signInWith(['notice.list:query']);
    render(
      <>
        <PermitFull name="notice.list:query">
          <span>query</span>
        </PermitFull>
        <PermitFull name="notice.list">
          <span>list</span>
        </PermitFull>
      </>,
    );
    expect(screen.getByText('query')).toBeInTheDocument();
    expect(screen.queryByText('list')).toBeNull();
  });

  it('PermitButton hides unless the button permission is held', () => {
    signInWith(['device.list', 'device.list:export']);
    render(
      <>
        <PermitButton permission="device.list:export">
          <button type="button">Export</button>
        </PermitButton>
        <PermitButton permission="device.list:import">
          <button type="button">Import</button>
        </PermitButton>
        <PermitButton permission="device.list">
          <button type="button">Route</button>
        </PermitButton>
      </>,
    );
    expect(screen.getByRole('button', { name: 'Export' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Route' })).toBeNull();
  });

  it('DevicePermit greys, shows or removes by the device entry', () => {
    const entries: DevicePermissionEntry[] = [
      { permissionCode: 'edit', setStatus: 1, viewStatus: 1 },
      { permissionCode: 'share', setStatus: 0, viewStatus: 1 },
      { permissionCode: 'delete', setStatus: 0, viewStatus: 0 },
      { permissionCode: 'transfer', setStatus: -1, viewStatus: 1 },
    ];
    render(
      <>
        {['edit', 'share', 'delete', 'transfer', 'clear'].map((code) => (
          <DevicePermit key={code} entries={entries} code={code}>
            <button type="button">{code}</button>
          </DevicePermit>
        ))}
      </>,
    );
    expect(screen.getByRole('button', { name: 'edit' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'share' })).toBeDisabled();
    for (const code of ['delete', 'transfer', 'clear']) expect(screen.queryByRole('button', { name: code })).toBeNull();
  });
});
