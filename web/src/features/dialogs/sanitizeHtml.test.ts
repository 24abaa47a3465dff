import { describe, expect, it } from 'vitest';
import { isSafeUrl, sanitizeHtml, sanitizeStyle } from '@/components/sanitizeHtml';

describe('sanitizeHtml', () => {
  it('keeps ordinary rich text', () => {
    const html = '<p><strong>Scheduled maintenance</strong>: <em>Sunday</em> 02:00-03:00.</p><ul><li>one</li></ul>';
    expect(sanitizeHtml(html)).toBe(html);
  });

  it('drops scripts, styles, frames and embedded content with what is inside them', () => {
    const html =
      '<p>a</p><script>alert(1)</script><style>p{}</style><iframe src="https://x"></iframe>' +
      '<object data="x"></object><svg><script>alert(2)</script></svg><template><img src=x></template><p>b</p>';
    expect(sanitizeHtml(html)).toBe('<p>a</p><p>b</p>');
  });

  it('removes event handlers and unknown attributes', () => {
    const out = sanitizeHtml('<p onclick="alert(1)" class="bp6-overlay" id="x" data-x="1" title="t">hi</p><img src="https://a/b.png" onerror="alert(1)">');
    expect(out).toBe('<p title="t">hi</p><img src="https://a/b.png">');
  });

  it.each([
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'jav&#x09;ascript:alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html;base64,PHNjcmlwdD4=',
  ])('drops the link %s', (href) => {
    expect(sanitizeHtml(`<a href="${href}">x</a>`)).toBe('<a>x</a>');
  });

  it('keeps safe links and makes new windows safe', () => {
    expect(sanitizeHtml('<a href="https://example.com/a?b=1&amp;c=2" target="_blank">x</a>')).toBe(
      '<a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeHtml('<a href="/help/center" target="top">x</a>')).toBe('<a href="/help/center">x</a>');
    expect(sanitizeHtml('<a href="mailto:ops@example.com">x</a>')).toBe('<a href="mailto:ops@example.com">x</a>');
  });

  it('keeps raster data images but not svg ones or scripts in img sources', () => {
    expect(sanitizeHtml('<img src="data:image/png;base64,iVBORw0KGgo=">')).toBe('<img src="data:image/png;base64,iVBORw0KGgo=">');
    expect(sanitizeHtml('<img src="data:image/svg+xml;base64,PHN2Zz4=">')).toBe('<img>');
    expect(sanitizeHtml('<img src="javascript:alert(1)">')).toBe('<img>');
  });

  it('unwraps unknown tags and keeps their text', () => {
    expect(sanitizeHtml('<section><font color="red">red</font> text</section>')).toBe('red text');
  });

  it('drops comments and form controls', () => {
    expect(sanitizeHtml('<p>a<!-- secret --></p><form action="/x"><input value="y"><button>go</button></form>')).toBe('<p>a</p>');
  });

  it('keeps text as text', () => {
    expect(sanitizeHtml('1 &lt; 2 &amp; <b>&lt;script&gt;</b>')).toBe('1 &lt; 2 &amp; <b>&lt;script&gt;</b>');
  });
});

describe('sanitizeStyle', () => {
  it('keeps harmless declarations', () => {
    expect(sanitizeStyle('color: red; text-align:center; font-weight: bold')).toBe(
      'color: red; text-align: center; font-weight: bold',
    );
  });

  it('drops positioning, urls and expressions', () => {
    expect(sanitizeStyle('position: fixed; inset: 0; background: url(https://x/y.png); color: expression(alert(1))')).toBe('');
    expect(sanitizeStyle('background-color: url(x)')).toBe('');
  });

  it('applies to style attributes', () => {
    expect(sanitizeHtml('<span style="color: #c00; position: absolute">x</span>')).toBe('<span style="color: #c00">x</span>');
    expect(sanitizeHtml('<span style="position: absolute">x</span>')).toBe('<span>x</span>');
  });
});

describe('isSafeUrl', () => {
  it.each([
    ['https://a.example', false, true],
    ['http://a.example', false, true],
    ['/relative/path', false, true],
    ['tel:+8613800000000', false, true],
    ['ftp://a.example', false, false],
    ['mailto:x@y.z', true, false],
    ['https://a.example/p.png', true, true],
  ])('%s (image %s): %s', (url, image, safe) => {
    expect(isSafeUrl(url, image)).toBe(safe);
  });
});
