import { Button, ContextMenu, Icon, Menu, MenuItem, PopoverNext } from '@blueprintjs/core';
import {
  ArrowLeftIcon, ArrowRightIcon, ChevronDownIcon, CrossIcon, DisableIcon, SmallCrossIcon,
} from '@blueprintjs/icons';
import { useEffect, useRef, type JSX, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { notify } from '@/lib/notify';
import { closeAll, closeLeft, closeRight, closeTab, type Tab, type TabsResult, type TabsState } from './tabRules';
import { tabStore, useTabs } from './tabStore';

export interface TabBarProps {
  /** The tab that "close all" keeps: home, or the platform's default landing. */
  home: Tab;
}

type Action = 'close-current' | 'close-right' | 'close-left' | 'close-all';

function run(action: Action, state: TabsState, name: string, home: Tab): TabsResult {
  switch (action) {
    case 'close-current':
      return closeTab(state, name);
    case 'close-right':
      return closeRight(state, name);
    case 'close-left':
      return closeLeft(state, name);
    case 'close-all':
      return closeAll(state, home);
  }
}

const ACTIONS: { action: Action; icon: JSX.Element; label: string }[] = [
  { action: 'close-current', icon: <CrossIcon />, label: 'tabs.closeCurrent' },
  { action: 'close-right', icon: <ArrowRightIcon />, label: 'tabs.closeRight' },
  { action: 'close-left', icon: <ArrowLeftIcon />, label: 'tabs.closeLeft' },
  { action: 'close-all', icon: <DisableIcon />, label: 'tabs.closeAll' },
];

/** One tab per visited page: click to go back to it, × or the context menu to close tabs. */
export function TabBar({ home }: TabBarProps) {
  const { t } = useTranslation(['layout', 'app']);
  const navigate = useNavigate();
  const state = useTabs();
  const activeRef = useRef<HTMLDivElement | null>(null);

  useEffect(() => {
    activeRef.current?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [state.active]);

  const apply = (result: TabsResult) => {
    if (result.notice) {
      notify.info(t(`tabs.${result.notice}`));
      return;
    }
    const before = state.active;
    tabStore.set(result);
    const target = result.tabs.find((tab) => tab.name === result.active);
    if (target && result.active !== before) navigate(target.path);
  };
  const act = (action: Action, name: string) => apply(run(action, tabStore.get(), name, home));
  const title = (tab: Tab) => t(`app:route.${tab.name}`);
  const menuFor = (name: string) => (
    <Menu>
      {ACTIONS.map(({ action, icon, label }) => (
        <MenuItem key={action} icon={icon} text={t(label)} data-testid={`tab-menu-${action}`} onClick={() => act(action, name)} />
      ))}
    </Menu>
  );
  const select = (tab: Tab) => {
    if (tab.name !== state.active) navigate(tab.path);
  };
  const onKey = (event: KeyboardEvent<HTMLDivElement>, tab: Tab) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      select(tab);
    } else if (event.key === 'Delete') {
      act('close-current', tab.name);
    } else if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      const at = state.tabs.findIndex((other) => other.name === tab.name);
      const next = state.tabs[at + (event.key === 'ArrowRight' ? 1 : -1)];
      if (next) select(next);
    }
  };
  const onClose = (event: MouseEvent<HTMLButtonElement>, tab: Tab) => {
    event.stopPropagation();
    act('close-current', tab.name);
  };

  return (
    <div className="jc-tabbar" data-testid="tab-bar">
      <div className="jc-tabs" role="tablist" aria-label={t('tabs.label')}>
        {state.tabs.map((tab) => {
          const active = tab.name === state.active;
          return (
            <ContextMenu key={tab.name} content={menuFor(tab.name)} className="jc-tab-wrap">
              <div
                ref={active ? activeRef : undefined}
                role="tab"
                tabIndex={active ? 0 : -1}
                aria-selected={active}
                className={`jc-tab${active ? ' is-active' : ''}`}
                data-testid={`tab-${tab.name}`}
                title={title(tab)}
                onClick={() => select(tab)}
                onKeyDown={(event) => onKey(event, tab)}
                onAuxClick={(event) => event.button === 1 && act('close-current', tab.name)}
              >
                {active && <span className="jc-tab-dot" aria-hidden="true" />}
                <span className="jc-tab-title">{title(tab)}</span>
                <button
                  type="button"
                  className="jc-tab-close"
                  aria-label={t('tabs.close', { title: title(tab) })}
                  tabIndex={-1}
                  onClick={(event) => onClose(event, tab)}
                >
                  <Icon icon={<SmallCrossIcon />} size={14} />
                </button>
              </div>
            </ContextMenu>
          );
        })}
      </div>
      {state.active && (
        <PopoverNext placement="bottom-end" arrow={false} animation="minimal" content={menuFor(state.active)}>
          <Button variant="minimal" size="small" icon={<ChevronDownIcon />} className="jc-tab-actions" aria-label={t('tabs.actions')}
            title={t('tabs.actions')} />
        </PopoverNext>
      )}
    </div>
  );
}
