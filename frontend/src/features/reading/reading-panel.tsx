import './reading-panel.css';

import { DEFAULT_PREFS, ZOOMS, isChanged, setPrefs, useReadingPrefs, type ReadingPrefs, type TextSize } from './prefs';
import { useReadAloud } from './read-aloud';
import { useHasChineseVoice } from './voices';
import { pageHref } from '../../lib/page-href';

const SIZE_LABELS: Record<TextSize, string> = { standard: '标准', large: '大', xlarge: '特大' };

/** The on/off aids, in the order they are offered. */
const SWITCHES: { key: 'contrast' | 'spacing' | 'cursor' | 'guide'; label: string }[] = [
  { key: 'contrast', label: '高对比度' },
  { key: 'spacing', label: '加大行距' },
  { key: 'cursor', label: '大鼠标' },
  { key: 'guide', label: '十字线' },
];

/** Where the 关怀版's statement is (the route table's `accessibility` page). */
export const STATEMENT_HREF = pageHref('/accessibility');

export interface ReadingPanelProps {
  /** Whether the entry is open (the browser's voices are asked for only then). */
  open: boolean;
}

/**
 * The 关怀版's panel, the content of the entry's `<details>` (shown and hidden by the browser): text
 * size, page zoom, high contrast, wider line spacing, a large cursor, 十字线, 语音朗读 when the
 * browser has a Chinese voice, the 无障碍声明 and 重置, each aid a button with aria-pressed in
 * labelled groups. Always mounted, so 语音朗读 goes on reading behind a closed panel.
 */
export default function ReadingPanel({ open }: ReadingPanelProps) {
  const prefs = useReadingPrefs();
  const speech = useReadAloud();
  const canSpeak = useHasChineseVoice(open || speech.speaking);

  const change = (patch: Partial<ReadingPrefs>) => setPrefs({ ...prefs, ...patch });
  const changed = isChanged(prefs);
  return (
    <div className="reading__panel" role="group" aria-label="关怀版设置">
      <fieldset className="reading__group">
        <legend>文字大小</legend>
        {(Object.keys(SIZE_LABELS) as TextSize[]).map((size) => (
          <button key={size} type="button" aria-pressed={prefs.size === size} onClick={() => change({ size })}>
            {SIZE_LABELS[size]}
          </button>
        ))}
      </fieldset>
      <fieldset className="reading__group">
        <legend>页面缩放</legend>
        {ZOOMS.map((zoom) => (
          <button key={zoom} type="button" aria-pressed={prefs.zoom === zoom} onClick={() => change({ zoom })}>
            {zoom}%
          </button>
        ))}
      </fieldset>
      <fieldset className="reading__group">
        <legend>辅助功能</legend>
        {SWITCHES.map(({ key, label }) => (
          <button key={key} type="button" aria-pressed={prefs[key]} onClick={() => change({ [key]: !prefs[key] })}>
            {label}
          </button>
        ))}
        {(canSpeak || speech.speaking) && (
          <button type="button" aria-pressed={speech.speaking} onClick={speech.speaking ? speech.stop : speech.start}>
            语音朗读
          </button>
        )}
      </fieldset>
      <div className="reading__actions">
        <a href={STATEMENT_HREF}>无障碍声明</a>
        <button
          type="button"
          onClick={() => {
            speech.stop();
            setPrefs(DEFAULT_PREFS);
          }}
          disabled={!changed && !speech.speaking}
        >
          重置
        </button>
      </div>
    </div>
  );
}
