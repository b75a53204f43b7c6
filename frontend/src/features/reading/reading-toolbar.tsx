import { useCallback, useId, useRef, useState } from 'react';

import { useDismiss } from '../../lib/dismiss';
import { DEFAULT_PREFS, setPrefs, useReadingPrefs, type TextSize } from './prefs';

const SIZE_LABELS: Record<TextSize, string> = { standard: '标准', large: '大', xlarge: '特大' };

/**
 * 无障碍: a button in the header opening the reading options (text size for the whole page, high
 * contrast, wider line spacing). Escape or a click elsewhere closes it; focus returns to the button.
 */
export function ReadingToolbar() {
  const prefs = useReadingPrefs();
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);

  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, toggle, root);

  const changed = prefs.size !== 'standard' || prefs.contrast || prefs.spacing;
  return (
    <div className="reading" ref={root}>
      <button
        ref={toggle}
        type="button"
        className="reading__toggle"
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => setOpen((o) => !o)}
      >
        无障碍
        {changed && <span className="visually-hidden">（已调整）</span>}
      </button>
      <div id={`${id}-panel`} className="reading__panel" hidden={!open} role="group" aria-label="无障碍阅读设置">
        <fieldset className="reading__sizes">
          <legend>文字大小</legend>
          {(Object.keys(SIZE_LABELS) as TextSize[]).map((size) => (
            <button key={size} type="button" aria-pressed={prefs.size === size} onClick={() => setPrefs({ ...prefs, size })}>
              {SIZE_LABELS[size]}
            </button>
          ))}
        </fieldset>
        <button type="button" aria-pressed={prefs.contrast} onClick={() => setPrefs({ ...prefs, contrast: !prefs.contrast })}>
          高对比度
        </button>
        <button type="button" aria-pressed={prefs.spacing} onClick={() => setPrefs({ ...prefs, spacing: !prefs.spacing })}>
          加大行距
        </button>
        <button type="button" onClick={() => setPrefs(DEFAULT_PREFS)} disabled={!changed}>
          恢复默认
        </button>
      </div>
    </div>
  );
}
