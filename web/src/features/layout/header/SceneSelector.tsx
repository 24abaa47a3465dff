import { Button, Icon, Menu, MenuItem, PopoverNext } from '@blueprintjs/core';
import { BlankIcon, CaretDownIcon, LayersIcon, TickIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sceneOffered } from '@/app/offered';
import { cachedCustomPage } from '@/lib/api/customPage';
import { notify } from '@/lib/notify';
import { useSession } from '@/lib/session';
import { browser } from '../browser';
import { defaultPath } from '../menu/buildMenu';
import { chooseScene } from '../scene';

export interface SceneSelectorProps {
  /** Only the icon, the scene's name in the tooltip (narrow screens). */
  compact?: boolean;
}

/** The scenes of the account (`baseSceneList`) that have pages; choosing one stores it and reloads the console. */
export function SceneSelector({ compact = false }: SceneSelectorProps) {
  const { t } = useTranslation('layout');
  const { info, sceneId } = useSession();
  const [busy, setBusy] = useState(false);
  const scenes = (info?.baseSceneList ?? []).filter((scene) => sceneOffered(scene.sceneType));
  const current = scenes.find((scene) => scene.sceneType === sceneId) ?? scenes[0];
  if (!current) return null;

  if (scenes.length === 1) {
    return (
      <span className="jc-scene jc-scene--single" data-testid="scene-selector" title={t('scene.current', { name: current.sceneName })}>
        <Icon icon={<LayersIcon />} />
        <span>{current.sceneName}</span>
      </span>
    );
  }

  const choose = async (sceneType: number) => {
    if (sceneType === sceneId || busy) return;
    setBusy(true);
    try {
      const next = await chooseScene(sceneType);
      if (next === 'denied') notify.error(t('scene.noPermission'));
      else if (next === 'reload') browser.reload();
      else browser.assign(defaultPath(cachedCustomPage()?.styleModel));
    } catch {
      // the HTTP client has shown why the permissions could not be read
    } finally {
      setBusy(false);
    }
  };

  return (
    <PopoverNext
      placement="bottom-start"
      arrow={false}
      animation="minimal"
      content={
        <Menu aria-label={t('scene.label')}>
          {scenes.map((scene) => (
            <MenuItem
              key={scene.sceneType}
              text={scene.sceneName}
              icon={scene.sceneType === sceneId ? <TickIcon /> : <BlankIcon />}
              active={scene.sceneType === sceneId}
              data-scene={scene.sceneType}
              onClick={() => void choose(scene.sceneType)}
            />
          ))}
        </Menu>
      }
    >
      <Button
        variant="minimal"
        icon={<LayersIcon />}
        endIcon={<CaretDownIcon />}
        loading={busy}
        className="jc-scene"
        data-testid="scene-selector"
        aria-label={t('scene.label')}
        title={t('scene.current', { name: current.sceneName })}
        text={compact ? undefined : current.sceneName}
      />
    </PopoverNext>
  );
}
