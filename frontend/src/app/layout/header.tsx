import { useLayoutEffect, useState } from 'react';

import { Menu } from '../../components/menu/menu';
import type { MenuItem } from '../../components/menu/types';
import { ReadingToolbar } from '../../features/reading';
import { SearchBox } from '../../features/search';
import { LanguageSwitch } from './language-switch';
import { Logo } from './logo';
import { messages } from '../../lib/locale';
import { pageHref } from '../../lib/page-href';

const text = messages({
  zh: { home: '首页', menu: '菜单', closeMenu: '关闭菜单' },
  en: { home: 'Home', menu: 'Menu', closeMenu: 'Close menu' },
});

interface HeaderProps {
  companyName: string;
  /**
   * The name a phone's header shows when the full one is long (an English company name ran to
   * four lines beside the menu button at 390 px): the stylesheet picks one, the link's name is the full one.
   */
  shortName?: string;
  items: MenuItem[];
  currentPath: string;
  /** Show the search box: unless the CMS has no search (shown while /site loads, so the menu does not move). */
  search?: boolean;
}

/** A name longer than this many characters gives way to the short one on a phone. */
const LONG_NAME = 24;

/**
 * From this many top-level sections the desktop menu takes a row of its own (global.css). Written
 * by the render as a class, not counted by the stylesheet (`:has(:nth-child(8))`): a first paint
 * made while the HTML was still arriving saw seven entries, laid the menu beside the name, then
 * moved it under it (a layout shift before the app ran; CI, 2026-12-07).
 */
const MENU_OWN_ROW = 8;

export function Header({ companyName, shortName, items, currentPath, search = false }: HeaderProps) {
  const [open, setOpen] = useState(false);
  // A menu opened by the link before the app ran (the address ends in #site-nav) is the app's
  // open menu now; the fragment goes, so closing it closes it.
  // Before the paint that drops the stylesheet's :target rule (`<html data-app>`).
  useLayoutEffect(() => {
    if (window.location.hash !== '#site-nav') return;
    setOpen(true);
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}`);
  }, []);
  const toggle = () => setOpen((o) => !o);
  const t = text();
  return (
    <header className="site-header">
      {/* A strip above the menu (the menu keeps its room): 关怀版 on every screen, where a visitor
          who needs it sees it without opening anything; the search box here on desktops only
          (phones: inside the menu). */}
      <div className="site-header__tools">
        <div className="container">
          <ReadingToolbar />
          <LanguageSwitch />
          {search && <SearchBox />}
        </div>
      </div>
      <div className={`container site-header__inner${items.length >= MENU_OWN_ROW ? ' site-header__inner--menu-row' : ''}`}>
        <a className="brand" href={pageHref('/')} aria-label={companyName ? undefined : t.home}>
          <Logo />
          {shortName && companyName.length > LONG_NAME ? (
            <>
              <span className="brand__name brand__name--full">{companyName}</span>
              <span className="brand__name brand__name--short" aria-hidden="true">
                {shortName}
              </span>
            </>
          ) : (
            <span className="brand__name">{companyName}</span>
          )}
        </a>
        {/* A link to the menu, so a tap opens it before the app's script has run (and with none:
            the stylesheet shows #site-nav when it is the target); the app then toggles it. */}
        <a
          href="#site-nav"
          role="button"
          className="menu-toggle"
          aria-expanded={open}
          aria-controls="site-nav"
          onClick={(event) => {
            event.preventDefault();
            toggle();
          }}
          onKeyDown={(event) => {
            if (event.key === ' ') {
              event.preventDefault();
              toggle();
            }
          }}
        >
          <span className="menu-toggle__bars" aria-hidden="true" />
          {open ? t.closeMenu : t.menu}
        </a>
        <div id="site-nav" className={`site-nav${open ? ' is-open' : ''}`}>
          {/* 首页 heads the phone's menu (a phone visitor looks for it there; on a desktop the logo
              and the name are the way home, and the stylesheet leaves this out). */}
          <a className="site-nav__home" href={pageHref('/')} aria-current={currentPath === '/' ? 'page' : undefined} onClick={() => setOpen(false)}>
            {t.home}
          </a>
          <Menu items={items} currentPath={currentPath} onNavigate={() => setOpen(false)} />
          <div className="site-nav__tools">
            {search && <SearchBox onSearch={() => setOpen(false)} />}
          </div>
        </div>
      </div>
    </header>
  );
}
