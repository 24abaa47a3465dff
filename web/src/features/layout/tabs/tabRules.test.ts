import { describe, expect, it } from 'vitest';
import { closeAll, closeLeft, closeRight, closeTab, openTab, type Tab, type TabsState } from './tabRules';

const tab = (name: string, path = `/${name}`): Tab => ({ name, path });
const state = (names: string[], active: string | null = names[0] ?? null): TabsState => ({
  tabs: names.map((name) => tab(name)),
  active,
});
const namesOf = (s: TabsState) => s.tabs.map((t) => t.name);
const home = tab('home');

describe('openTab', () => {
  it('adds a tab for a page visited for the first time and activates it', () => {
    const result = openTab(state(['home']), tab('deviceList'));
    expect(namesOf(result)).toEqual(['home', 'deviceList']);
    expect(result.active).toBe('deviceList');
    expect(result.notice).toBeUndefined();
  });

  it('opens the first tab of an empty bar', () => {
    expect(openTab({ tabs: [], active: null }, home)).toEqual({ tabs: [home], active: 'home' });
  });

  it('re-activates an open tab in its place and keeps its latest path', () => {
    const result = openTab(state(['home', 'deviceDetail', 'waybillList'], 'waybillList'), tab('deviceDetail', '/device/detail/9'));
    expect(namesOf(result)).toEqual(['home', 'deviceDetail', 'waybillList']);
    expect(result.tabs[1]).toEqual({ name: 'deviceDetail', path: '/device/detail/9' });
    expect(result.active).toBe('deviceDetail');
  });
});

describe('closeTab', () => {
  it('refuses to close the last tab with a message', () => {
    expect(closeTab(state(['home']), 'home')).toEqual({ ...state(['home']), notice: 'lastTab' });
  });

  it('closes an inactive tab and keeps the active one', () => {
    const result = closeTab(state(['home', 'a', 'b'], 'b'), 'a');
    expect(namesOf(result)).toEqual(['home', 'b']);
    expect(result.active).toBe('b');
  });

  it('activates the right neighbour when the active tab closes', () => {
    const result = closeTab(state(['home', 'a', 'b'], 'a'), 'a');
    expect(namesOf(result)).toEqual(['home', 'b']);
    expect(result.active).toBe('b');
  });

  it('activates the left neighbour when the active tab was the rightmost', () => {
    const result = closeTab(state(['home', 'a', 'b'], 'b'), 'b');
    expect(namesOf(result)).toEqual(['home', 'a']);
    expect(result.active).toBe('a');
  });

  it('ignores a tab that is not open', () => {
    expect(closeTab(state(['home', 'a'], 'a'), 'zzz')).toEqual(state(['home', 'a'], 'a'));
  });
});

describe('closeRight', () => {
  it('closes the tabs right of the chosen one', () => {
    const result = closeRight(state(['home', 'a', 'b', 'c'], 'home'), 'a');
    expect(namesOf(result)).toEqual(['home', 'a']);
    expect(result.active).toBe('home');
  });

  it('activates the chosen tab when the active one was closed', () => {
    expect(closeRight(state(['home', 'a', 'b', 'c'], 'c'), 'a').active).toBe('a');
  });

  it('says there are no tabs on the right of the rightmost tab', () => {
    const before = state(['home', 'a'], 'home');
    expect(closeRight(before, 'a')).toEqual({ ...before, notice: 'noRight' });
  });
});

describe('closeLeft', () => {
  it('closes the tabs left of the chosen one', () => {
    const result = closeLeft(state(['home', 'a', 'b', 'c'], 'c'), 'b');
    expect(namesOf(result)).toEqual(['b', 'c']);
    expect(result.active).toBe('c');
  });

  it('activates the chosen tab when the active one was closed', () => {
    expect(closeLeft(state(['home', 'a', 'b'], 'home'), 'b').active).toBe('b');
  });

  it('says there are no tabs on the left of the leftmost tab', () => {
    const before = state(['home', 'a'], 'a');
    expect(closeLeft(before, 'home')).toEqual({ ...before, notice: 'noLeft' });
  });
});

describe('closeAll', () => {
  it('keeps home as the only, active tab', () => {
    expect(closeAll(state(['home', 'a', 'b'], 'b'), home)).toEqual({ tabs: [home], active: 'home' });
  });

  it('brings home back when it had been closed', () => {
    expect(closeAll(state(['a', 'b'], 'a'), home)).toEqual({ tabs: [home], active: 'home' });
  });

  it('keeps the default landing of the platform instead of home', () => {
    const landing = tab('deviceList', '/device/list');
    expect(closeAll(state(['messageList', 'waybillList'], 'messageList'), landing)).toEqual({
      tabs: [landing],
      active: 'deviceList',
    });
  });

  it('keeps the path the landing tab was last opened with', () => {
    const before: TabsState = { tabs: [tab('home', '/home?x=1'), tab('a')], active: 'a' };
    expect(closeAll(before, home).tabs).toEqual([tab('home', '/home?x=1')]);
  });
});
