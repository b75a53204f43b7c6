import './reading-panel.css';

import { DEFAULT_PREFS, TEXT_SIZES, ZOOMS, isChanged, setPrefs, useReadingPrefs, type ReadingPrefs, type TextSize } from './prefs';
import { useReadAloud } from './read-aloud';
import { useHasVoice } from './voices';
import { messages } from '../../lib/locale';
import { pageHref } from '../../lib/page-href';

type Switch = 'contrast' | 'spacing' | 'cursor' | 'guide';

const text = messages<{
  panel: string;
  size: string;
  sizes: Record<TextSize, string>;
  zoom: string;
  aids: string;
  switches: Record<Switch, string>;
  readAloud: string;
  statement: string;
  reset: string;
}>({
  zh: {
    panel: '关怀版设置',
    size: '文字大小',
    sizes: { standard: '标准', large: '大', xlarge: '特大' },
    zoom: '页面缩放',
    aids: '辅助功能',
    switches: { contrast: '高对比度', spacing: '加大行距', cursor: '大鼠标', guide: '十字线' },
    readAloud: '语音朗读',
    statement: '无障碍声明',
    reset: '重置',
  },
  en: {
    panel: 'Accessibility settings',
    size: 'Text size',
    sizes: { standard: 'Standard', large: 'Large', xlarge: 'Extra large' },
    zoom: 'Page zoom',
    aids: 'Reading aids',
    switches: { contrast: 'High contrast', spacing: 'Wider line spacing', cursor: 'Large cursor', guide: 'Crosshair' },
    readAloud: 'Read aloud',
    statement: 'Accessibility statement',
    reset: 'Reset',
  },
});

/** The on/off aids, in the order they are offered. */
const SWITCHES: readonly Switch[] = ['contrast', 'spacing', 'cursor', 'guide'];

/** Where the 关怀版's statement is (the route table's `accessibility` page). */
const statementHref = (): string => pageHref('/accessibility');

export interface ReadingPanelProps {
  /** Whether the entry is open (the browser's voices are asked for only then). */
  open: boolean;
}

/**
 * The 关怀版's panel, the content of the entry's `<details>` (shown and hidden by the browser): text
 * size, page zoom, high contrast, wider line spacing, a large cursor, 十字线, 语音朗读 when the
 * browser has a voice in the page's language, the 无障碍声明 and 重置, each aid a button with aria-pressed in
 * labelled groups. Always mounted, so 语音朗读 goes on reading behind a closed panel.
 */
export default function ReadingPanel({ open }: ReadingPanelProps) {
  const prefs = useReadingPrefs();
  const speech = useReadAloud();
  const canSpeak = useHasVoice(open || speech.speaking);
  const t = text();

  const change = (patch: Partial<ReadingPrefs>) => setPrefs({ ...prefs, ...patch });
  const changed = isChanged(prefs);
  return (
    <div className="reading__panel" role="group" aria-label={t.panel}>
      <fieldset className="reading__group">
        <legend>{t.size}</legend>
        {TEXT_SIZES.map((size) => (
          <button key={size} type="button" aria-pressed={prefs.size === size} onClick={() => change({ size })}>
            {t.sizes[size]}
          </button>
        ))}
      </fieldset>
      <fieldset className="reading__group">
        <legend>{t.zoom}</legend>
        {ZOOMS.map((zoom) => (
          <button key={zoom} type="button" aria-pressed={prefs.zoom === zoom} onClick={() => change({ zoom })}>
            {zoom}%
          </button>
        ))}
      </fieldset>
      <fieldset className="reading__group">
        <legend>{t.aids}</legend>
        {SWITCHES.map((key) => (
          <button key={key} type="button" aria-pressed={prefs[key]} onClick={() => change({ [key]: !prefs[key] })}>
            {t.switches[key]}
          </button>
        ))}
        {(canSpeak || speech.speaking) && (
          <button type="button" aria-pressed={speech.speaking} onClick={speech.speaking ? speech.stop : speech.start}>
            {t.readAloud}
          </button>
        )}
      </fieldset>
      <div className="reading__actions">
        <a href={statementHref()}>{t.statement}</a>
        <button
          type="button"
          onClick={() => {
            speech.stop();
            setPrefs(DEFAULT_PREFS);
          }}
          disabled={!changed && !speech.speaking}
        >
          {t.reset}
        </button>
      </div>
    </div>
  );
}
