import { useState } from 'react';

import { Menu } from '../../components/menu/menu';
import type { MenuItem } from '../../components/menu/types';
import { Logo } from './logo';

interface HeaderProps {
  companyName: string;
  items: MenuItem[];
  currentPath: string;
}

export function Header({ companyName, items, currentPath }: HeaderProps) {
  const [open, setOpen] = useState(false);
  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <a className="brand" href="#/">
          <Logo />
          <span className="brand__name">{companyName}</span>
        </a>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={open}
          aria-controls="site-nav"
          onClick={() => setOpen((o) => !o)}
        >
          <span className="menu-toggle__bars" aria-hidden="true" />
          {open ? '关闭菜单' : '菜单'}
        </button>
        <div id="site-nav" className={`site-nav${open ? ' is-open' : ''}`}>
          <Menu items={items} currentPath={currentPath} onNavigate={() => setOpen(false)} />
        </div>
      </div>
    </header>
  );
}
