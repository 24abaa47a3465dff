/**
 * The multi-tab bar's rules (spec seed 000 sections 2 and 8): one tab per visited page, closing
 * the current, right, left or all tabs. Each rule returns the new list, the active tab and, when
 * nothing could be closed, the key of the message that says why.
 */

/** One open page: the route's name is the tab's identity, the path the last one visited. */
export interface Tab {
  /** The route's name. */
  name: string;
  /** The path (and query) last visited under the tab. */
  path: string;
}

export interface TabsState {
  /** The open tabs, left to right. */
  tabs: Tab[];
  /** The name of the active tab. */
  active: string | null;
}

/** Why nothing was closed; a key of the `layout:tabs` strings. */
export type TabNotice = 'lastTab' | 'noLeft' | 'noRight';

export interface TabsResult extends TabsState {
  /** Set when nothing was closed: the message to show. */
  notice?: TabNotice;
}

const indexOf = (state: TabsState, name: string) => state.tabs.findIndex((tab) => tab.name === name);

/** Opens (or re-opens with its latest path) the tab of a visited page and makes it active. */
export function openTab(state: TabsState, tab: Tab): TabsResult {
  const at = indexOf(state, tab.name);
  if (at < 0) return { tabs: [...state.tabs, tab], active: tab.name };
  const tabs = state.tabs.map((existing, i) => (i === at ? tab : existing));
  return { tabs, active: tab.name };
}

/** Closes one tab; the last tab stays. Closing the active tab activates its right, else left, neighbour. */
export function closeTab(state: TabsState, name: string): TabsResult {
  const at = indexOf(state, name);
  if (at < 0) return { ...state };
  if (state.tabs.length <= 1) return { ...state, notice: 'lastTab' };
  const tabs = state.tabs.filter((_, i) => i !== at);
  if (state.active !== name) return { tabs, active: state.active };
  const neighbour = state.tabs[at + 1] ?? state.tabs[at - 1];
  return { tabs, active: neighbour?.name ?? null };
}

function keepActive(state: TabsState, tabs: Tab[], name: string): string {
  return tabs.some((tab) => tab.name === state.active) ? (state.active as string) : name;
}

/** Closes the tabs right of one; the active tab becomes that one if it was closed. */
export function closeRight(state: TabsState, name: string): TabsResult {
  const at = indexOf(state, name);
  if (at < 0) return { ...state };
  if (at === state.tabs.length - 1) return { ...state, notice: 'noRight' };
  const tabs = state.tabs.slice(0, at + 1);
  return { tabs, active: keepActive(state, tabs, name) };
}

/** Closes the tabs left of one; the active tab becomes that one if it was closed. */
export function closeLeft(state: TabsState, name: string): TabsResult {
  const at = indexOf(state, name);
  if (at < 0) return { ...state };
  if (at === 0) return { ...state, notice: 'noLeft' };
  const tabs = state.tabs.slice(at);
  return { tabs, active: keepActive(state, tabs, name) };
}

/** Closes every tab but the landing page (home, or the default landing), which becomes active. */
export function closeAll(state: TabsState, home: Tab): TabsResult {
  const kept = state.tabs.find((tab) => tab.name === home.name) ?? home;
  return { tabs: [kept], active: kept.name };
}
