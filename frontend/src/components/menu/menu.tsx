import { useEffect, useRef, useState, type KeyboardEvent } from 'react';

import type { MenuItem } from './types';
import { messages } from '../../lib/locale';
import { linkHref } from '../../lib/page-href';

const text = messages({
  zh: { nav: '主导航' },
  en: { nav: 'Main navigation' },
});

interface MenuProps {
  items: MenuItem[];
  /** The current route, e.g. `/about/honor`. */
  currentPath: string;
  /** Called after a link is chosen (closes the mobile menu). */
  onNavigate?: () => void;
}

/** A section's page, or a service's own address (`[site.services]`: a system elsewhere). */
const href = linkHref;

function isCurrent(item: MenuItem, path: string): boolean {
  return item.url === path || item.children.some((c) => isCurrent(c, path));
}

/**
 * The main navigation: top-level entries with children are disclosure buttons (`aria-expanded`)
 * over a list of links. Keyboard: Enter/Space toggle, ArrowDown/ArrowUp open and move, ArrowLeft/
 * ArrowRight move between top-level entries, Home/End, Esc closes and returns focus.
 */
export function Menu({ items, currentPath, onNavigate }: MenuProps) {
  const [open, setOpen] = useState<string | null>(null);
  // A sub-menu opened by hovering stays open when its button is then clicked (the click is the
  // same gesture); one opened by a click or the keyboard closes on the next click.
  const openedByHover = useRef(false);
  const navRef = useRef<HTMLElement>(null);

  useEffect(() => setOpen(null), [currentPath]);

  useEffect(() => {
    if (open === null) return undefined;
    const close = (event: MouseEvent) => {
      if (!navRef.current?.contains(event.target as Node)) setOpen(null);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  const topLevel = () => Array.from(navRef.current?.querySelectorAll<HTMLElement>('[data-top]') ?? []);
  const linksOf = (key: string) =>
    Array.from(navRef.current?.querySelectorAll<HTMLElement>(`#submenu-${key} a`) ?? []);

  const moveTop = (from: HTMLElement, step: number) => {
    const all = topLevel();
    const next = all[(all.indexOf(from) + step + all.length) % all.length];
    next?.focus();
  };

  const openAndFocus = (key: string, which: 'first' | 'last') => {
    openedByHover.current = false;
    setOpen(key);
    requestAnimationFrame(() => {
      const links = linksOf(key);
      (which === 'first' ? links[0] : links[links.length - 1])?.focus();
    });
  };

  const onTopKey = (event: KeyboardEvent<HTMLElement>, item: MenuItem) => {
    const hasChildren = item.children.length > 0;
    switch (event.key) {
      case 'ArrowDown':
        if (hasChildren) {
          event.preventDefault();
          openAndFocus(item.key, 'first');
        }
        break;
      case 'ArrowUp':
        if (hasChildren) {
          event.preventDefault();
          openAndFocus(item.key, 'last');
        }
        break;
      case 'ArrowRight':
        event.preventDefault();
        moveTop(event.currentTarget, 1);
        break;
      case 'ArrowLeft':
        event.preventDefault();
        moveTop(event.currentTarget, -1);
        break;
      case 'Escape':
        setOpen(null);
        break;
      default:
    }
  };

  const onSubKey = (event: KeyboardEvent<HTMLAnchorElement>, item: MenuItem) => {
    const links = linksOf(item.key);
    const at = links.indexOf(event.currentTarget);
    const focus = (i: number) => {
      event.preventDefault();
      links[(i + links.length) % links.length]?.focus();
    };
    switch (event.key) {
      case 'ArrowDown':
        focus(at + 1);
        break;
      case 'ArrowUp':
        focus(at - 1);
        break;
      case 'Home':
        focus(0);
        break;
      case 'End':
        focus(links.length - 1);
        break;
      case 'Escape': {
        event.preventDefault();
        setOpen(null);
        navRef.current?.querySelector<HTMLElement>(`[data-key="${item.key}"]`)?.focus();
        break;
      }
      default:
    }
  };

  return (
    <nav className="menu" aria-label={text().nav} ref={navRef}>
      <ul className="menu__list">
        {items.map((item) => {
          const current = isCurrent(item, currentPath);
          if (item.children.length === 0) {
            return (
              <li key={item.key} className={`menu__item${current ? ' is-current' : ''}`}>
                <a
                  className="menu__top"
                  href={href(item.url)}
                  data-top=""
                  data-key={item.key}
                  aria-current={item.url === currentPath ? 'page' : undefined}
                  onKeyDown={(e) => onTopKey(e, item)}
                  onClick={onNavigate}
                >
                  {item.name}
                </a>
              </li>
            );
          }
          const expanded = open === item.key;
          return (
            <li
              key={item.key}
              className={`menu__item has-children${current ? ' is-current' : ''}`}
              onMouseEnter={() => {
                if (window.matchMedia?.('(hover: hover)').matches) {
                  openedByHover.current = true;
                  setOpen(item.key);
                }
              }}
              onMouseLeave={() => {
                if (window.matchMedia?.('(hover: hover)').matches) setOpen(null);
              }}
              onBlur={(event) => {
                if (!event.currentTarget.contains(event.relatedTarget as Node | null)) {
                  setOpen((o) => (o === item.key ? null : o));
                }
              }}
            >
              <button
                type="button"
                className="menu__top"
                data-top=""
                data-key={item.key}
                aria-expanded={expanded}
                aria-controls={`submenu-${item.key}`}
                onClick={() => {
                  const keepOpen = expanded && openedByHover.current;
                  openedByHover.current = false;
                  setOpen(expanded && !keepOpen ? null : item.key);
                }}
                onKeyDown={(e) => onTopKey(e, item)}
              >
                {item.name}
                <span className="menu__caret" aria-hidden="true" />
              </button>
              <ul id={`submenu-${item.key}`} className="menu__sub" hidden={!expanded}>
                {item.children.map((child) => (
                  <li key={child.key}>
                    <a
                      href={href(child.url)}
                      aria-current={child.url === currentPath ? 'page' : undefined}
                      onKeyDown={(e) => onSubKey(e, item)}
                      onClick={() => {
                        setOpen(null);
                        onNavigate?.();
                      }}
                    >
                      {child.name}
                    </a>
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
