import { Button, Checkbox, Classes, Dialog, DialogBody, DialogFooter, Intent } from '@blueprintjs/core';
import { ArrowDownIcon, ArrowUpIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '@/lib/notify';
import { useSaveHomeTiles, type HomeTiles } from './api/homeTiles';
import { choiceOf, keptTiles, move, toggle } from './tileChoice';

/** The "customise" dialog: tick the tiles to keep (at least `minimum`) and order them. */
export function TilesDialog({ tiles, isOpen, onClose }: {
  /** The user's tiles as the server has them. */
  tiles: HomeTiles;
  isOpen: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('home');
  const save = useSaveHomeTiles();
  const [choice, setChoice] = useState(() => choiceOf(tiles.tiles, tiles.available));
  const kept = keptTiles(choice);
  const tooFew = kept.length < tiles.minimum;
  // A refusal is shown by the HTTP client with the server's message; the dialog stays open.
  const submit = () =>
    save.mutate(kept, {
      onSuccess: () => {
        notify.success(t('tiles.saved'));
        onClose();
      },
    });
  return (
    <Dialog
      isOpen={isOpen}
      onClose={onClose}
      onOpening={() => setChoice(choiceOf(tiles.tiles, tiles.available))}
      title={t('tiles.title')}
      className="jc-home-tiles-dialog"
    >
      <DialogBody>
        <p className={Classes.TEXT_MUTED}>{t('tiles.hint', { count: tiles.minimum })}</p>
        <ol className="jc-home-tile-choices" data-testid="home-tiles-choices">
          {choice.order.map((tile, index) => (
            <li key={tile} data-testid="home-tile-choice" data-tile={tile}>
              <Checkbox
                checked={choice.kept.has(tile)}
                label={t(`tiles.name.${tile}`)}
                onChange={(event) => setChoice(toggle(choice, tile, event.currentTarget.checked))}
                data-testid={`home-tile-keep-${tile}`}
                className="jc-home-tile-choice-check"
              />
              <Button
                icon={<ArrowUpIcon />}
                variant="minimal"
                size="small"
                disabled={index === 0}
                aria-label={t('tiles.up', { name: t(`tiles.name.${tile}`) })}
                onClick={() => setChoice(move(choice, index, -1))}
                data-testid={`home-tile-up-${tile}`}
              />
              <Button
                icon={<ArrowDownIcon />}
                variant="minimal"
                size="small"
                disabled={index === choice.order.length - 1}
                aria-label={t('tiles.down', { name: t(`tiles.name.${tile}`) })}
                onClick={() => setChoice(move(choice, index, 1))}
                data-testid={`home-tile-down-${tile}`}
              />
            </li>
          ))}
        </ol>
        {tooFew && (
          <p className={`${Classes.TEXT_SMALL} jc-home-tiles-error`} role="alert" data-testid="home-tiles-too-few">
            {t('tiles.tooFew', { count: tiles.minimum })}
          </p>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('tiles.cancel')} onClick={onClose} />
            <Button
              intent={Intent.PRIMARY}
              text={t('tiles.save')}
              disabled={tooFew}
              loading={save.isPending}
              onClick={submit}
              data-testid="home-tiles-save"
            />
          </>
        }
      />
    </Dialog>
  );
}
