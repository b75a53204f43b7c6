import { useEffect, useRef } from 'react';

import { messages } from '../lib/locale';

const text = messages({
  zh: {
    dialog: '大图',
    dialogOf: (alt: string) => `大图：${alt}`,
    turned: '图片已横向显示，横握手机看得更清楚',
    count: (n: number, of: number) => `第 ${n} 张，共 ${of} 张`,
    prev: '上一张',
    next: '下一张',
    close: '关闭',
  },
  en: {
    dialog: 'Enlarged image',
    dialogOf: (alt: string) => `Enlarged image: ${alt}`,
    turned: 'The image is shown sideways: turn your phone for a better view',
    count: (n: number, of: number) => `${n} of ${of}`,
    prev: 'Previous',
    next: 'Next',
    close: 'Close',
  },
});

export interface LightboxImage {
  src: string;
  alt: string;
  /** The caption's lines (a certificate's title, then its issuer): shown one under another. */
  caption: string[];
  /** The picture's drawn size (its width and height attributes), when known. */
  width?: number;
  height?: number;
}

interface LightboxProps {
  images: LightboxImage[];
  index: number | null;
  onIndex: (index: number | null) => void;
}

/**
 * Whether a picture is drawn wider than tall (a chart, a certificate): on a phone held upright the
 * view turns it a quarter, so it spans the screen's length rather than its width (the lightbox's
 * CSS in styles/global.css) — a 720 px chart is then drawn near its own size instead of at half,
 * a certificate twice as large as its thumbnail.
 */
const isLandscape = (image: LightboxImage) => !!image.width && !!image.height && image.width >= image.height * 1.2;

/**
 * The 大图 view: a modal image viewer on the native <dialog>, as large as the screen allows.
 * Focus stays inside, Esc closes, the arrow keys move between pictures.
 */
export function Lightbox({ images, index, onIndex }: LightboxProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (index !== null && !d.open) d.showModal?.();
    if (index === null && d.open) d.close?.();
  }, [index]);

  const image = index === null ? null : images[index];
  const several = images.length > 1;
  const step = (by: number) => index !== null && onIndex((index + by + images.length) % images.length);
  const t = text();
  return (
    // The modal is keyboard-complete without these handlers (Esc closes; the buttons step and
    // close); the arrow keys and the backdrop click are conveniences on top.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <dialog
      ref={dialog}
      className="lightbox"
      aria-label={image ? t.dialogOf(image.alt) : t.dialog}
      onClose={() => onIndex(null)}
      onKeyDown={(e) => {
        if (e.key === 'ArrowRight') step(1);
        if (e.key === 'ArrowLeft') step(-1);
      }}
      onClick={(e) => e.target === dialog.current && onIndex(null)}
    >
      {image && (
        <figure className={`lightbox__figure${isLandscape(image) ? ' lightbox__figure--landscape' : ''}`}>
          <div className="lightbox__frame">
            <img src={image.src} alt={image.alt} width={image.width} height={image.height} />
          </div>
          {/* Lines of their own; the first one (a certificate's title) stands out when more follow. */}
          <figcaption className={image.caption.length > 1 ? 'lightbox__caption--titled' : undefined}>
            {image.caption.map((line, i) => (
              // The lines are the caption's text in order, which never changes while it shows.
              <span className="lightbox__line" key={i}>
                {line}
              </span>
            ))}
            {/* Shown where the picture is turned (a phone held upright: global.css). */}
            {isLandscape(image) && <span className="lightbox__turned muted">{t.turned}</span>}
            {several && (
              <span className="lightbox__count muted">
                {t.count((index ?? 0) + 1, images.length)}
              </span>
            )}
          </figcaption>
        </figure>
      )}
      <div className="lightbox__controls">
        {several && (
          <>
            <button type="button" className="button button--ghost" onClick={() => step(-1)}>
              {t.prev}
            </button>
            <button type="button" className="button button--ghost" onClick={() => step(1)}>
              {t.next}
            </button>
          </>
        )}
        {/* The dialog's initial focus (HTML's dialog focusing steps honour autofocus). */}
        {/* eslint-disable-next-line jsx-a11y/no-autofocus */}
        <button type="button" className="button" onClick={() => onIndex(null)} autoFocus>
          {t.close}
        </button>
      </div>
    </dialog>
  );
}
