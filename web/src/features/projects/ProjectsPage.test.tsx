import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn } from '@/test/harness';
import { session } from '@/lib/session';
import { device, page as devices } from '@/test/devices';
import type { Project } from '@/lib/api/projects';
import ProjectsPage from './ProjectsPage';
import { projectFormSchema } from './projectForm';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

const PERMITTED = ['home', 'device.list', 'device.detail', 'project.list', 'project.list:add', 'project.list:edit',
  'project.list:delete'];
const page = <T,>(rows: T[]) => envelope({ start: 1, pageSize: 10, totalCount: rows.length, data: rows });

function project(change: Partial<Project> = {}): Project {
  return { id: 4, projectName: 'Warehouse 1', remark: 'Cold room and its door', createdAt: '2026-11-01T08:00:00+08:00',
    deviceCount: 2, onlineCount: 1, alarmCount: 0, organizationId: null, organizationName: null, changeable: true, ...change };
}

describe('projects', () => {
  it('checks a name as the server does', () => {
    const schema = projectFormSchema(i18n.t.bind(i18n) as never);
    const ok = (projectName: string, remark = '') => schema.safeParse({ projectName, remark }).success;
    expect(ok('  Dock B ')).toBe(true);
    expect(ok('冷库')).toBe(true);
    expect(ok('x'.repeat(20))).toBe(true);
    expect(ok('x')).toBe(false);
    expect(ok('x'.repeat(21))).toBe(false);
    expect(ok('Ice 🧊')).toBe(false);
    expect(ok('a\u200db')).toBe(false);
    expect(ok('Fine', 'r'.repeat(201))).toBe(false);
  });

  it('makes a project, shows the server\'s refusal under the name, and opens the new one', async () => {
    let rows: Project[] = [];
    const server = fakeServer({
      'POST /device/Project/page': () => page(rows),
      'POST /device/Project/insert': (call) => {
        const { projectName } = call.body as { projectName: string };
        if (projectName === 'Taken') {
          return envelope(null, 422, 422, 'Invalid input', { projectName: ['You already have a project of this name'] });
        }
        rows = [project({ id: 9, projectName, remark: null, deviceCount: 0, onlineCount: 0 })];
        return envelope(rows[0]);
      },
      'GET /device/Project/get': () => envelope(rows[0]),
      'POST /device/Device/page': () => envelope(devices([])),
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<ProjectsPage />, '/project/list');
    expect(await screen.findByText('No projects yet')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByTestId('project-add'));
    await user.type(screen.getByTestId('project-name'), 'Taken');
    await user.click(screen.getByTestId('project-save'));
    expect(await screen.findByText('You already have a project of this name')).toBeInTheDocument();
    await user.clear(screen.getByTestId('project-name'));
    await user.type(screen.getByTestId('project-name'), '  Dock B ');
    await user.click(screen.getByTestId('project-save'));
    await waitFor(() => expect(server.callsTo('POST /device/Project/insert')).toHaveLength(2));
    expect(server.callsTo('POST /device/Project/insert')[1]?.body).toEqual({ projectName: 'Dock B', remark: null, organizationId: null });
    expect(await within(await screen.findByTestId('project-detail')).findByText('No devices in this project')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/project/list?id=9');
  });

  it('opens a project with its devices, each linked, and removes one from it', async () => {
    let inside = [device({ deviceId: 1, deviceName: 'Warehouse 1 cold room', projectId: 4, projectName: 'Warehouse 1' }),
      device({ deviceId: 2, deviceName: 'Warehouse 1 door logger', projectId: 4, projectName: 'Warehouse 1', access: 1 })];
    const server = fakeServer({
      'POST /device/Project/page': () => page([project()]),
      'GET /device/Project/get': () => envelope(project({ deviceCount: inside.length })),
      'POST /device/Device/page': () => envelope(devices(inside)),
      'POST /device/Device/changeProject': (call) => {
        const { deviceIds } = call.body as { deviceIds: number[] };
        inside = inside.filter((d) => !deviceIds.includes(d.deviceId));
        return envelope({ moved: deviceIds.length });
      },
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<ProjectsPage />, '/project/list');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('project-open'));
    const detail = await screen.findByTestId('project-detail');
    const rows = await within(detail).findAllByTestId('project-device');
    expect(within(rows[0]!).getByRole('link', { name: 'Warehouse 1 cold room' })).toHaveAttribute('href', '/device/detail/1');
    expect(server.callsTo('POST /device/Device/page')[0]?.body).toMatchObject({ projectId: 4 });
    // a device the caller only reads cannot be taken out
    expect(within(rows[1]!).queryByTestId('project-device-remove')).toBeNull();
    expect(within(detail).getByTestId('project-open-list')).toHaveAttribute('href', '/device/list?project=4');
    await user.click(within(rows[0]!).getByTestId('project-device-remove'));
    await waitFor(() => expect(server.callsTo('POST /device/Device/changeProject')).toHaveLength(1));
    expect(server.callsTo('POST /device/Device/changeProject')[0]?.body).toEqual({ deviceIds: [1], projectId: null });
    await waitFor(() => expect(within(detail).getAllByTestId('project-device')).toHaveLength(1));
  });

  it('deletes a project only after saying its devices stay', async () => {
    let rows = [project()];
    const server = fakeServer({
      'POST /device/Project/page': () => page(rows),
      'DELETE /device/Project/delete': () => {
        rows = [];
        return envelope({ released: 2 });
      },
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<ProjectsPage />, '/project/list');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('project-delete'));
    expect(await screen.findByTestId('project-delete-confirm')).toHaveTextContent(
      'Delete the project Warehouse 1? Its 2 devices stay, in no project.');
    expect(server.callsTo('DELETE /device/Project/delete')).toHaveLength(0);
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No projects yet')).toBeInTheDocument();
    expect(server.callsTo('DELETE /device/Project/delete')[0]?.params.get('id')).toBe('4');
  });

  it('offers no changes to a caller who may only list projects', async () => {
    fakeServer({ 'POST /device/Project/page': () => page([project()]) });
    signIn(accountInfo({}, { permissionRoutes: ['home', 'project.list'] }), ['home', 'project.list']);
    renderApp(<ProjectsPage />, '/project/list');
    await screen.findByTestId('project-row');
    expect(screen.queryByTestId('project-add')).toBeNull();
    expect(screen.queryByTestId('project-edit')).toBeNull();
    expect(screen.queryByTestId('project-delete')).toBeNull();
  });
});
