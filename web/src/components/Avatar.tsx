import { useAccountPhoto } from '@/lib/api/accountPhoto';

export interface AvatarProps {
  /** The account's name: its first letter stands in for a missing photo. */
  name: string;
  /** The account photo's address (accountInfo's accountPhoto), if any. */
  photo: string | null | undefined;
  /** Width and height in pixels. */
  size?: number;
}

/** A round account photo, or the name's first letter on the theme colour (also while the photo loads). */
export function Avatar({ name, photo, size = 28 }: AvatarProps) {
  const style = { width: size, height: size, fontSize: Math.round(size * 0.45) };
  const shown = useAccountPhoto(photo);
  if (shown) return <img className="jc-avatar" src={shown} alt="" style={style} data-testid="avatar-photo" />;
  return (
    <span className="jc-avatar jc-avatar--initial" style={style} aria-hidden="true">
      {[...name.trim()][0]?.toUpperCase() ?? '?'}
    </span>
  );
}
