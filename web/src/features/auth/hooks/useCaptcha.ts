import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchCaptcha } from '../api/captcha';

/** The captcha on screen: its id (sent as captchaId) and an object URL of its image. */
export interface ShownCaptcha {
  id: string;
  url: string;
}

export interface CaptchaState {
  captcha: ShownCaptcha | null;
  loading: boolean;
  /** The last image could not be fetched. */
  failed: boolean;
  /** Fetches a new image and forgets the old one. */
  refresh: () => void;
}

/**
 * The login captcha. Each image is shown from an object URL; the URL of an image that is
 * replaced (or of one that arrives after a newer request) is revoked so no blob is kept.
 */
export function useCaptcha(): CaptchaState {
  const [captcha, setCaptcha] = useState<ShownCaptcha | null>(null);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const latest = useRef(0);
  const shown = useRef<string | null>(null);
  const controller = useRef<AbortController | null>(null);

  const refresh = useCallback(() => {
    const request = ++latest.current;
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setLoading(true);
    fetchCaptcha(abort.signal).then(
      ({ id, image }) => {
        if (request !== latest.current) return;
        const url = URL.createObjectURL(image);
        if (shown.current) URL.revokeObjectURL(shown.current);
        shown.current = url;
        setCaptcha({ id, url });
        setFailed(false);
        setLoading(false);
      },
      () => {
        if (request !== latest.current) return;
        setFailed(true);
        setLoading(false);
      },
    );
  }, []);

  useEffect(
    () => () => {
      latest.current += 1;
      controller.current?.abort();
      if (shown.current) URL.revokeObjectURL(shown.current);
      shown.current = null;
    },
    [],
  );

  return { captcha, loading, failed, refresh };
}
