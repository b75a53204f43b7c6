import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from 'react';

import { useDismiss } from '../../../lib/dismiss';
import { copyText } from '../../../lib/clipboard';
import { messages } from '../../../lib/locale';

export const ARTICLE_SIZES = ['large', 'medium', 'small'] as const;
export type ArticleSize = (typeof ARTICLE_SIZES)[number];

const text = messages<{
  sizes: Record<ArticleSize, string>;
  sizeGroup: string;
  sizeCaption: string;
  sizeName: (size: string) => string;
  print: string;
  copy: string;
  copied: string;
  copyFailed: string;
  qr: string;
  qrLoading: string;
  qrLabel: string;
  qrNote: string;
}>({
  zh: {
    sizes: { large: '大', medium: '中', small: '小' },
    sizeGroup: '正文字号',
    sizeCaption: '字号：',
    sizeName: (size) => `正文字号${size}`,
    print: '打印本页',
    copy: '复制链接',
    copied: '链接已复制，可粘贴分享。',
    copyFailed: '复制失败，请手动复制地址栏中的链接。',
    qr: '二维码',
    qrLoading: '二维码生成中…',
    qrLabel: '本文链接的二维码',
    qrNote: '手机扫码阅读或分享本文',
  },
  en: {
    sizes: { large: 'Large', medium: 'Medium', small: 'Small' },
    sizeGroup: 'Article text size',
    sizeCaption: 'Text size: ',
    sizeName: (size) => `${size} text`,
    print: 'Print',
    copy: 'Copy link',
    copied: 'Link copied: paste it to share.',
    copyFailed: 'Could not copy. Please copy the link from the address bar.',
    qr: 'QR code',
    qrLoading: 'Generating QR code…',
    qrLabel: 'QR code of the link to this article',
    qrNote: 'Scan with your phone to read or share this article',
  },
});

const QrCode = lazy(() => import(/* webpackChunkName: "qr-code" */ './qr-code'));

interface ArticleToolsProps {
  size: ArticleSize;
  onSize: (size: ArticleSize) => void;
  /** What 复制链接 copies and the QR code holds: the page's real URL. */
  url: string;
}

/**
 * 字号 大/中/小, 打印本页, 复制链接 and the page's QR code (分享), above an article.
 *
 * 字号 is three radios, not buttons the app answers: the body's size follows the checked one in
 * CSS (`main:has(…:checked) .article__body`), so a tap works from the first paint, before the
 * app's scripts have run (on a phone over Slow 4G the app answered it 1.4 s after the paint). The
 * state the app keeps follows the radios once it runs.
 */
export function ArticleTools({ size, onSize, url }: ArticleToolsProps) {
  const t = text();
  const [status, setStatus] = useState('');
  const [qrShown, setQrShown] = useState(false);
  const id = useId();
  const qrButton = useRef<HTMLButtonElement>(null);

  const hideQr = useCallback(() => setQrShown(false), []);
  useDismiss(qrShown, hideQr, qrButton);

  // A size chosen before the app ran (the browser checked its radio; the CSS already sized the
  // body): hydration keeps it, and the app's state takes it, or the next render of these radios
  // would check the old one again.
  const sizes = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const checked = sizes.current?.querySelector<HTMLInputElement>('input:checked')?.value;
    const chosen = ARTICLE_SIZES.find((s) => s === checked);
    if (chosen && chosen !== size) onSize(chosen);
  }, [size, onSize]);

  // Whole, where the visitor is, when the site names no public address (the page then carries a
  // path): asked only in the browser, at a press.
  const absolute = () => new URL(url, window.location.href).href;
  const copy = async () => setStatus((await copyText(absolute())) ? t.copied : t.copyFailed);

  return (
    <div className="article__tools">
      <div ref={sizes} className="article__sizes" role="radiogroup" aria-label={t.sizeGroup}>
        <span aria-hidden="true">{t.sizeCaption}</span>
        {ARTICLE_SIZES.map((s) => (
          <label key={s} className="article__size">
            <input
              type="radio"
              name={`${id}-size`}
              value={s}
              checked={size === s}
              onChange={() => onSize(s)}
              aria-label={t.sizeName(t.sizes[s])}
            />
            <span aria-hidden="true">{t.sizes[s]}</span>
          </label>
        ))}
      </div>
      <div className="article__share">
        <button type="button" onClick={() => window.print()}>
          {t.print}
        </button>
        <button type="button" onClick={copy}>
          {t.copy}
        </button>
        <button ref={qrButton} type="button" aria-expanded={qrShown} aria-controls={`${id}-qr`} onClick={() => setQrShown((s) => !s)}>
          {t.qr}
        </button>
        <span className="article__status" role="status">
          {status}
        </span>
      </div>
      {qrShown && (
        <div id={`${id}-qr`} className="article__qr">
          <Suspense fallback={<span className="muted">{t.qrLoading}</span>}>
            <QrCode text={absolute()} label={t.qrLabel} />
          </Suspense>
          <p>{t.qrNote}</p>
        </div>
      )}
    </div>
  );
}
