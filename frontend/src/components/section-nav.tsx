import './section-nav.css';

import { useId, useLayoutEffect, useRef, useState } from 'react';
import { messages } from '../lib/locale';
import { pageHref } from '../lib/page-href';

const text = messages({
  zh: { nav: (title: string) => `${title}栏目导航`, hint: '左右滑动查看更多栏目' },
  en: { nav: (title: string) => `${title}: section navigation`, hint: 'Swipe sideways for more' },
});

export interface SectionLink {
  name: string;
  url: string;
}

interface SectionNavProps {
  /** The section's name (新闻中心) and its group page. */
  title: string;
  url?: string;
  items: SectionLink[];
  /** The route of the entry to mark. */
  current?: string;
  /**
   * `page` when the marked entry is the page shown; `true` when the page is inside it (an article
   * of that list).
   */
  currentKind?: 'page' | 'true';
}

/**
 * 栏目导航: the pages of an inner page's section. A column beside the content on wide screens; on
 * phones (≤ 768 px) the same links as one row that scrolls sideways, the current one brought into
 * view. The same markup either way (CSS alone changes it), so nothing moves when the layout does.
 */
export function SectionNav({ title, url, items, current, currentKind = 'page' }: SectionNavProps) {
  const list = useRef<HTMLUListElement>(null);
  const hint = useId();
  // Whether the phone strip scrolls: then its cue shows and describes the navigation (a visitor
  // sees that more entries lie to the side; the sweep's contract, docs/frontend.md "Wide content").
  // Kept up as the strip changes size (a turned phone, 关怀版's text size).
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const strip = list.current;
    if (!strip) return undefined;
    const mark = () => setScrolls(strip.scrollWidth > strip.clientWidth + 1);
    mark();
    if (typeof ResizeObserver === 'undefined') return undefined;
    // The strip's own box keeps its width when larger text widens the entries: watch them too.
    const observer = new ResizeObserver(mark);
    [strip, ...Array.from(strip.children)].forEach((el) => observer.observe(el));
    return () => observer.disconnect();
  }, [items]);

  // In the phone strip the current entry may sit past the right edge: scroll the strip (only the
  // strip, never the page) to it. A no-op when the list does not scroll (the desktop column).
  useLayoutEffect(() => {
    const strip = list.current;
    const here = strip?.querySelector<HTMLElement>('[aria-current]');
    if (!strip || !here || strip.scrollWidth <= strip.clientWidth) return;
    const offset = here.getBoundingClientRect().left - strip.getBoundingClientRect().left + strip.scrollLeft;
    strip.scrollLeft = Math.max(0, offset - (strip.clientWidth - here.offsetWidth) / 2);
  }, [current, items]);

  const t = text();
  return (
    <nav
      className={`section-nav${scrolls ? ' is-scrolling' : ''}`}
      aria-label={t.nav(title)}
      aria-describedby={scrolls ? hint : undefined}
    >
      <p className="section-nav__title">{url ? <a href={pageHref(url)}>{title}</a> : title}</p>
      <p className="section-nav__hint" id={hint} aria-hidden="true">
        {t.hint}
      </p>
      <ul className="section-nav__list" ref={list}>
        {items.map((item) => (
          <li key={item.url}>
            <a href={pageHref(item.url)} aria-current={item.url === current ? currentKind : undefined}>
              {item.name}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
