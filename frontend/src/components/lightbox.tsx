import { useEffect, useRef } from 'react';

export interface LightboxImage {
  src: string;
  alt: string;
  caption: string;
}

interface LightboxProps {
  images: LightboxImage[];
  index: number | null;
  onIndex: (index: number | null) => void;
}

/** A modal image viewer on the native <dialog>: focus stays inside, Esc closes, arrows move. */
export function Lightbox({ images, index, onIndex }: LightboxProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (index !== null && !d.open) d.showModal?.();
    if (index === null && d.open) d.close?.();
  }, [index]);

  const image = index === null ? null : images[index];
  const step = (by: number) => index !== null && onIndex((index + by + images.length) % images.length);
  return (
    // The modal is keyboard-complete without these handlers (Esc closes; the buttons step and
    // close); the arrow keys and the backdrop click are conveniences on top.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <dialog
      ref={dialog}
      className="lightbox"
      aria-label={image ? `大图：${image.alt}` : '大图'}
      onClose={() => onIndex(null)}
      onKeyDown={(e) => {
        if (e.key === 'ArrowRight') step(1);
        if (e.key === 'ArrowLeft') step(-1);
      }}
      onClick={(e) => e.target === dialog.current && onIndex(null)}
    >
      {image && (
        <figure>
          <img src={image.src} alt={image.alt} />
          <figcaption>
            {image.caption}
            <span className="muted">
              {' '}
              （{(index ?? 0) + 1}/{images.length}）
            </span>
          </figcaption>
        </figure>
      )}
      <div className="lightbox__controls">
        <button type="button" className="button button--ghost" onClick={() => step(-1)}>
          上一张
        </button>
        <button type="button" className="button button--ghost" onClick={() => step(1)}>
          下一张
        </button>
        {/* The dialog's initial focus (HTML's dialog focusing steps honour autofocus). */}
        {/* eslint-disable-next-line jsx-a11y/no-autofocus */}
        <button type="button" className="button" onClick={() => onIndex(null)} autoFocus>
          关闭
        </button>
      </div>
    </dialog>
  );
}
