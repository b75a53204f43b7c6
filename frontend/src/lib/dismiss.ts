import { useEffect, type RefObject } from 'react';

/**
 * While `open`: Escape closes and puts focus back on `returnTo` (the control that opened it); with
 * `inside`, a press outside that element closes too. For the header's and an article's small panels.
 */
export function useDismiss(
  open: boolean,
  close: () => void,
  returnTo: RefObject<HTMLElement | null>,
  inside?: RefObject<HTMLElement | null>,
): void {
  useEffect(() => {
    if (!open) return undefined;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      close();
      returnTo.current?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      if (inside && !inside.current?.contains(e.target as Node)) close();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open, close, returnTo, inside]);
}
