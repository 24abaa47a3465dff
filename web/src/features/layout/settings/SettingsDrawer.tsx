import { Button, Drawer, DrawerSize, H6, Icon, Switch } from '@blueprintjs/core';
import { CogIcon, ResetIcon, TickIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { cachedCustomPage } from '@/features/platform/api/customPage';
import { resolveThemeColor } from '@/features/platform/whiteLabel';
import { settingsStore, THEME_PALETTE, useLayoutSettings, type LayoutSettings } from './settings';

export interface SettingsDrawerProps {
  /** The drawer shows. */
  isOpen: boolean;
  /** Closes the drawer. */
  onClose: () => void;
}

type Flag = 'fixedHeader' | 'fixedSidebar' | 'autoHideHeader' | 'multiTab' | 'colourWeak';

/** Display settings: layout switches, colour weakness and the theme colour, stored and applied at once. */
export function SettingsDrawer({ isOpen, onClose }: SettingsDrawerProps) {
  const { t } = useTranslation('layout');
  const settings = useLayoutSettings();
  const current = resolveThemeColor(cachedCustomPage(), settings.theme).toLowerCase();
  const flag = (name: Flag, label: string, disabled = false, hint?: string) => (
    <Switch
      className="jc-setting"
      checked={settings[name]}
      disabled={disabled}
      alignIndicator="end"
      data-testid={`setting-${name}`}
      labelElement={
        <span className="jc-setting-label">
          {label}
          {hint && <small>{hint}</small>}
        </span>
      }
      onChange={(event) => settingsStore.update({ [name]: event.currentTarget.checked } as Partial<LayoutSettings>)}
    />
  );
  return (
    <Drawer
      isOpen={isOpen}
      onClose={onClose}
      size={DrawerSize.SMALL}
      icon={<CogIcon />}
      title={t('settings.title')}
      className="jc-settings"
    >
      <div className="jc-settings-body">
        <H6>{t('settings.layout')}</H6>
        {flag('fixedHeader', t('settings.fixedHeader'))}
        {flag('autoHideHeader', t('settings.autoHideHeader'), !settings.fixedHeader, t('settings.autoHideHint'))}
        {flag('fixedSidebar', t('settings.fixedSidebar'))}
        {flag('multiTab', t('settings.multiTab'))}
        <H6>{t('settings.appearance')}</H6>
        {flag('colourWeak', t('settings.colourWeak'))}
        <div className="jc-setting-colours" role="radiogroup" aria-label={t('settings.themeColour')}>
          <span className="jc-setting-label">{t('settings.themeColour')}</span>
          <div className="jc-swatches">
            {THEME_PALETTE.map(({ id, color }) => {
              const chosen = current === color.toLowerCase();
              return (
                <button
                  key={id}
                  type="button"
                  role="radio"
                  aria-checked={chosen}
                  aria-label={t(`settings.colours.${id}`)}
                  title={t(`settings.colours.${id}`)}
                  className={`jc-swatch${chosen ? ' is-chosen' : ''}`}
                  style={{ background: color }}
                  data-colour={color}
                  onClick={() => settingsStore.update({ theme: color })}
                >
                  {chosen && <Icon icon={<TickIcon />} size={14} color="var(--bp-palette-white)" />}
                </button>
              );
            })}
          </div>
        </div>
      </div>
      <div className="jc-settings-footer">
        <Button icon={<ResetIcon />} variant="outlined" onClick={() => settingsStore.reset()} text={t('settings.reset')} />
      </div>
    </Drawer>
  );
}
