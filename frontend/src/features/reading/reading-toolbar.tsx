import './reading.css';

import { useCallback, useEffect, useRef, useState } from 'react';

import { useDismiss } from '../../lib/dismiss';
import { messages } from '../../lib/locale';
import { onRouteChange } from '../../lib/route-change';
import { isChanged, useReadingPrefs } from './prefs';
import ReadingPanel from './reading-panel';

const text = messages({
  zh: { entry: '关怀版', on: '（已开启辅助功能）' },
  en: { entry: 'Accessibility mode', on: ' (aids on)' },
});

/**
 * 关怀版: the entry in the header (desktop and phone) opening the reading aids of the 适老化 rules
 * (reading-panel.tsx). A `<details>`, so the browser opens it from the first paint: on a phone the
 * app hydrates seconds after the page is shown (4× CPU, Slow 4G: 1.6–2.2 s after the first paint,
 * `docs/performance.md`, "Phones"), and a button waited that long to answer. The panel is in the
 * server's markup for the same reason; its buttons pressed before the app runs are replayed once it
 * has (lib/early-clicks.ts). Escape or a click elsewhere closes the panel, Escape putting focus back
 * on the entry; choices are kept (prefs.ts) and applied before the first paint.
 */
export function ReadingToolbar() {
  const prefs = useReadingPrefs();
  const t = text();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDetailsElement>(null);
  const entry = useRef<HTMLElement>(null);

  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, entry, root);
  // Following a link (the statement) or the browser's back button leaves the panel behind.
  useEffect(() => (open ? onRouteChange(close) : undefined), [open, close]);
  // Opened by the browser before the app ran (its toggle event went to no one): the app's state
  // follows the page, so Escape, a click elsewhere or a route change close it.
  useEffect(() => {
    if (root.current?.open) setOpen(true);
  }, []);

  return (
    <details className="reading" ref={root} open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary
        ref={entry}
        className="reading__toggle"
        // Once the app runs it opens and closes the panel itself, at the press: left to the browser,
        // its state came with the `toggle` event, a task later, and an Escape pressed in between
        // (its listener not yet there) left the panel open (a clean clone's CI, 2026-12-06).
        onClick={(event) => {
          event.preventDefault();
          setOpen((now) => !now);
        }}
      >
        {t.entry}
        {isChanged(prefs) && <span className="visually-hidden">{t.on}</span>}
      </summary>
      <ReadingPanel open={open} />
    </details>
  );
}
