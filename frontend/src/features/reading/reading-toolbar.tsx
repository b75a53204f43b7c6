import './reading.css';

import { useCallback, useEffect, useId, useRef, useState } from 'react';

import { afterPaint } from '../../lib/after-paint';
import { useDismiss } from '../../lib/dismiss';
import { onRouteChange } from '../../lib/route-change';
import { isChanged, useReadingPrefs } from './prefs';

// No first paint shows the panel: it comes once the page has painted, or on a hover, focus or press.
const panel = afterPaint(() => import(/* webpackChunkName: "reading-panel" */ './reading-panel').then((m) => m.default));

/**
 * 关怀版: the entry in the header (desktop and phone) opening the reading aids of the 适老化 rules
 * (reading-panel.tsx, a chunk of its own). Escape or a click elsewhere closes the panel, Escape
 * putting focus back on the entry; choices are kept (prefs.ts) and applied before the first paint.
 */
export function ReadingToolbar() {
  const prefs = useReadingPrefs();
  const [open, setOpen] = useState(false);
  const [Panel, load] = panel.useModule();
  const id = `${useId()}-panel`;
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);

  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, toggle, root);
  // Following a link (the statement) or the browser's back button leaves the panel behind.
  useEffect(() => (open ? onRouteChange(close) : undefined), [open, close]);

  return (
    <div className="reading" ref={root}>
      <button
        ref={toggle}
        type="button"
        className="reading__toggle"
        aria-expanded={open}
        aria-controls={id}
        onPointerEnter={load}
        onFocus={load}
        onClick={() => {
          load();
          setOpen((o) => !o);
        }}
      >
        关怀版
        {isChanged(prefs) && <span className="visually-hidden">（已开启辅助功能）</span>}
      </button>
      {/* Until its chunk is here, an empty stand-in keeps aria-controls pointing at something. */}
      {Panel ? <Panel id={id} open={open} /> : <div id={id} hidden role="group" aria-label="关怀版设置" />}
    </div>
  );
}
