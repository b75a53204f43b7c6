import { enhanceReading } from './reading';

// The crawlable page's 关怀版 shares the app's stored choice: it changes what it offers and keeps
// what only the app offers (zoom, cursor, reading guide).
const MARKUP = `<div class="reading" hidden data-reading><button type="button" class="reading__toggle" aria-expanded="false" aria-controls="reading-panel">关怀版</button><div id="reading-panel" class="reading__panel" hidden><button type="button" data-size="standard" aria-pressed="true">标准</button><button type="button" data-size="large" aria-pressed="false">大</button><button type="button" data-switch="contrast" aria-pressed="false">高对比度</button><button type="button" data-switch="spacing" aria-pressed="false">加大行距</button></div></div>`;

const button = (text: string) => [...document.querySelectorAll('button')].find((b) => b.textContent === text)!;

test('a choice on a crawlable page is written in the app’s shape, keeping the app’s own choices, and applied at once', () => {
  localStorage.setItem('readingPrefs', JSON.stringify({ size: 'standard', zoom: 150, contrast: false, spacing: true, cursor: true, guide: true }));
  document.body.innerHTML = MARKUP;
  enhanceReading();
  expect(document.querySelector<HTMLElement>('[data-reading]')!.hidden).toBe(false);
  expect(button('加大行距').getAttribute('aria-pressed')).toBe('true');
  button('关怀版').click();
  button('大').click();
  button('高对比度').click();
  expect(JSON.parse(localStorage.getItem('readingPrefs')!)).toEqual({ size: 'large', zoom: 150, contrast: true, spacing: true, cursor: true, guide: true });
  const root = document.documentElement;
  expect([root.getAttribute('data-text-size'), root.getAttribute('data-contrast'), root.getAttribute('data-spacing')]).toEqual(['large', 'high', 'wide']);
  expect(button('大').getAttribute('aria-pressed')).toBe('true');
  expect(button('标准').getAttribute('aria-pressed')).toBe('false');
});
