import { useEffect, useState } from 'react';

import { messages } from '../lib/locale';

const text = messages({
  zh: { label: '顶部', full: '（返回顶部）' },
  en: { label: 'Top', full: ' (back to top)' },
});

/**
 * 返回顶部 beside a long page (issue 47: the phone home page is nine screens): a plain link to the
 * document's top, like the footer's, shown once the visitor has scrolled past the first screen and a
 * half. Before the app runs it is out of sight: a visitor who has just arrived is at the top.
 */
export function BackToTop() {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    let frame = 0;
    const check = () => {
      frame = 0;
      setShown(window.scrollY > window.innerHeight * 1.5);
    };
    const onScroll = () => {
      if (frame === 0) frame = requestAnimationFrame(check);
    };
    check();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  }, []);
  const t = text();
  return (
    <a className={`to-top${shown ? ' is-shown' : ''}`} href="#top" aria-hidden={shown ? undefined : true} tabIndex={shown ? undefined : -1}>
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round">
        <path d="M12 19V6M6 11l6-6 6 6" />
      </svg>
      <span>{t.label}</span>
      <span className="visually-hidden">{t.full}</span>
    </a>
  );
}
