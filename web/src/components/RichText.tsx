import { Classes } from '@blueprintjs/core';
import { useMemo } from 'react';
import { sanitizeHtml } from './sanitizeHtml';

export interface RichTextProps {
  /** HTML from the server; only its safe subset is drawn. */
  html: string;
  /** Extra class names for the container. */
  className?: string;
}

/** Operator-written rich text (a notice), sanitized and drawn with Blueprint's running-text styles. */
export function RichText({ html, className }: RichTextProps) {
  const safe = useMemo(() => sanitizeHtml(html), [html]);
  return (
    <div
      className={[Classes.RUNNING_TEXT, 'jc-rich-text', className].filter(Boolean).join(' ')}
      dangerouslySetInnerHTML={{ __html: safe }}
    />
  );
}
