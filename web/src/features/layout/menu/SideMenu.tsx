import { Collapse, Icon, Menu, MenuDivider, MenuItem, PopoverNext, Tooltip } from '@blueprintjs/core';
import { ChevronDownIcon, ShareIcon } from '@blueprintjs/icons';
import { useEffect, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { openExternal } from '@/app/effects';
import { namedIcon } from '@/lib/icons';
import type { MenuGroup } from '@/app/routes';
import { menuEntries, type MenuEntry, type MenuSection } from './buildMenu';

/** Menus up to this many items open every group; longer ones (the back office) only the current one. */
const OPEN_ALL_UP_TO = 30;

export interface SideMenuProps {
  /** The menu built for the current scene. */
  sections: MenuSection[];
  /** The item to highlight. */
  activeName: string | null;
  /** Icons only: items show their names in tooltips, groups fly out. */
  collapsed: boolean;
  /** Called once an item was chosen (the mobile drawer closes). */
  onChosen?: () => void;
}

function groupOf(sections: MenuSection[], name: string | null): MenuGroup | null {
  return sections.find((section) => section.items.some((item) => item.name === name))?.group ?? null;
}

/** Follows a menu item: external sites open in a new window, pages navigate in place. */
function useFollow(onChosen?: () => void) {
  const navigate = useNavigate();
  return (event: MouseEvent<HTMLElement>, item: MenuEntry) => {
    if (item.external) {
      event.preventDefault();
      openExternal(item.route);
      onChosen?.();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return; // a new browser tab
    event.preventDefault();
    navigate(item.path);
    onChosen?.();
  };
}

/** The dark navigation menu, grouped as the route table says. */
export function SideMenu({ sections, activeName, collapsed, onChosen }: SideMenuProps) {
  const { t } = useTranslation(['layout', 'app']);
  const follow = useFollow(onChosen);
  const [open, setOpen] = useState<ReadonlySet<MenuGroup>>(() => {
    if (menuEntries(sections).length <= OPEN_ALL_UP_TO) return new Set(sections.map((s) => s.group));
    const current = groupOf(sections, activeName);
    return new Set(current ? [current] : []);
  });
  const activeGroup = groupOf(sections, activeName);
  useEffect(() => {
    if (activeGroup) setOpen((was) => (was.has(activeGroup) ? was : new Set([...was, activeGroup])));
  }, [activeGroup]);

  const toggle = (group: MenuGroup) =>
    setOpen((was) => {
      const next = new Set(was);
      if (next.has(group)) next.delete(group);
      else next.add(group);
      return next;
    });
  const title = (item: MenuEntry) => t(`app:route.${item.name}`);

  const link = (item: MenuEntry, showLabel: boolean) => (
    <a
      key={item.name}
      href={item.path}
      className={`jc-menu-item${item.name === activeName ? ' is-active' : ''}`}
      aria-current={item.name === activeName ? 'page' : undefined}
      aria-label={showLabel ? undefined : title(item)}
      title={showLabel ? title(item) : undefined}
      target={item.external ? '_blank' : undefined}
      rel={item.external ? 'noopener' : undefined}
      data-testid={`menu-${item.name}`}
      onClick={(event) => follow(event, item)}
    >
      <Icon icon={namedIcon(item.icon)} className="jc-menu-icon" />
      {showLabel && <span className="jc-menu-label">{title(item)}</span>}
      {showLabel && item.external && <Icon icon={<ShareIcon title={t('nav.external')} />} size={12} className="jc-menu-external" />}
    </a>
  );

  if (collapsed) {
    return (
      <nav className="jc-menu jc-menu--collapsed" aria-label={t('nav.label')}>
        {sections.map((section) =>
          section.group === 'top' ? (
            section.items.map((item) => (
              <Tooltip key={item.name} content={title(item)} placement="right" className="jc-menu-tip">
                {link(item, false)}
              </Tooltip>
            ))
          ) : (
            <PopoverNext
              key={section.group}
              interactionKind="hover"
              placement="right-start"
              hoverCloseDelay={150}
              className="jc-menu-tip"
              popoverClassName="jc-menu-flyout"
              content={
                <Menu>
                  <MenuDivider title={t(`app:menuGroup.${section.group}`)} />
                  {section.items.map((item) => (
                    <MenuItem
                      key={item.name}
                      icon={namedIcon(item.icon)}
                      text={title(item)}
                      href={item.path}
                      active={item.name === activeName}
                      labelElement={item.external ? <Icon icon={<ShareIcon />} size={12} /> : undefined}
                      onClick={(event: MouseEvent<HTMLElement>) => follow(event, item)}
                    />
                  ))}
                </Menu>
              }
            >
              <button
                type="button"
                className={`jc-menu-group-icon${section.group === activeGroup ? ' is-active' : ''}`}
                aria-label={t(`app:menuGroup.${section.group}`)}
              >
                <Icon icon={namedIcon(section.icon)} />
              </button>
            </PopoverNext>
          ),
        )}
      </nav>
    );
  }

  return (
    <nav className="jc-menu" aria-label={t('nav.label')}>
      {sections.map((section) =>
        section.group === 'top' ? (
          <div key="top" className="jc-menu-top">
            {section.items.map((item) => link(item, true))}
          </div>
        ) : (
          <div key={section.group} className="jc-menu-group">
            <button
              type="button"
              className={`jc-menu-group-title${section.group === activeGroup ? ' is-active' : ''}`}
              aria-expanded={open.has(section.group)}
              onClick={() => toggle(section.group)}
            >
              <Icon icon={namedIcon(section.icon)} className="jc-menu-icon" />
              <span className="jc-menu-label">{t(`app:menuGroup.${section.group}`)}</span>
              <Icon icon={<ChevronDownIcon />} size={14} className="jc-menu-chevron" />
            </button>
            <Collapse isOpen={open.has(section.group)} keepChildrenMounted>
              <div className="jc-menu-items">{section.items.map((item) => link(item, true))}</div>
            </Collapse>
          </div>
        ),
      )}
    </nav>
  );
}
