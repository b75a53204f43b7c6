import './reading.css';

import { useCallback, useEffect, useId, useRef, useState, type ComponentType } from 'react';

import { useDismiss } from '../../lib/dismiss';
import { isChanged, useReadingPrefs } from './prefs';
import type { ReadingPanelProps } from './reading-panel';

type Panel = ComponentType<ReadingPanelProps>;
let panel: Panel | null = null;
let loading: Promise<Panel> | null = null;

/**
 * The panel's chunk: asked for once the page has painted, or when the entry is hovered, focused or
 * pressed, whichever comes first. A failed load is asked for again on the next press.
 */
export function loadReadingPanel(): Promise<Panel> {
  loading ??= import(/* webpackChunkName: "reading-panel" */ './reading-panel').then(
    (module) => (panel = module.default),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** The panel once its chunk is here (rendered at once, no suspense), else null while it loads. */
function useReadingPanel(): [Panel | null, () => void] {
  // A component is a function, which useState would call: it is kept as its module's loaded state.
  const [loaded, setLoaded] = useState(() => panel);
  const load = useCallback(() => {
    if (!panel) loadReadingPanel().then((p) => setLoaded(() => p), () => undefined);
  }, []);
  useEffect(() => {
    if (panel) return undefined;
    // After the first paint, while the visitor reads: the entry then opens at once.
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 1500));
    const cancel = window.cancelIdleCallback ?? window.clearTimeout;
    const handle = idle(load);
    return () => cancel(handle);
  }, [load]);
  return [loaded, load];
}

/**
 * 关怀版: the entry in the header (desktop and phone) opening the reading aids of the 适老化 rules
 * (reading-panel.tsx, a chunk of its own). Escape or a click elsewhere closes the panel, Escape
 * putting focus back on the entry; choices are kept (prefs.ts) and applied before the first paint.
 */
export function ReadingToolbar() {
  const prefs = useReadingPrefs();
  const [open, setOpen] = useState(false);
  const [Panel, load] = useReadingPanel();
  const id = `${useId()}-panel`;
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);

  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, toggle, root);
  // Following a link (the statement) or the browser's back button leaves the panel behind.
  useEffect(() => {
    if (!open) return undefined;
    window.addEventListener('hashchange', close);
    return () => window.removeEventListener('hashchange', close);
  }, [open, close]);

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
