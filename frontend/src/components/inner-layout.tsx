import './section-nav.css';

import type { ReactNode } from 'react';

interface InnerLayoutProps {
  /** The 栏目导航, when the page has a section. */
  nav?: ReactNode;
  /**
   * Keep the two columns even without a navigation: the article route, whose section is known
   * only once the article is (the page must not be mounted anew, nor move, when it comes).
   */
  reserve?: boolean;
  /** The navigation is still to come: its row's room is kept on phones. */
  pending?: boolean;
  children: ReactNode;
}

/** An inner page with its 栏目导航: a column to the left (a row above on phones), the page beside it. */
export function InnerLayout({ nav, reserve = false, pending = false, children }: InnerLayoutProps) {
  if (!nav && !reserve) return <>{children}</>;
  return (
    <div className={`inner-layout${pending && !nav ? ' inner-layout--pending' : ''}`}>
      <div className="inner-layout__nav">{nav}</div>
      <div className="inner-layout__main">{children}</div>
    </div>
  );
}
