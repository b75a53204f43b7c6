import { find, findAll } from './dom';

/**
 * Phones: the 菜单 link (which, without this script, opens the menu as its `#site-nav` target)
 * becomes a button that folds the menu. Desktops: the sub-sections drop down on hover and focus by
 * the stylesheet alone; Escape folds the open one back and returns to its section.
 */
export function enhanceMenu(): void {
  const nav = find('#site-nav');
  const link = find<HTMLAnchorElement>('a.menu-toggle');
  if (!nav) return;
  if (link) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = link.className;
    button.textContent = '菜单';
    button.setAttribute('aria-controls', nav.id);
    button.setAttribute('aria-expanded', 'false');
    const set = (open: boolean) => {
      nav.classList.toggle('is-open', open);
      button.setAttribute('aria-expanded', String(open));
      button.textContent = open ? '关闭菜单' : '菜单';
    };
    button.addEventListener('click', () => set(!nav.classList.contains('is-open')));
    nav.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && nav.classList.contains('is-open')) {
        set(false);
        button.focus();
      }
    });
    link.replaceWith(button);
  }
  for (const item of findAll('.menu__item')) {
    const top = find<HTMLAnchorElement>('.menu__top', item);
    if (!top || !find('.menu__sub', item)) continue;
    top.setAttribute('aria-haspopup', 'true');
    item.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || item.classList.contains('is-dismissed')) return;
      item.classList.add('is-dismissed');
      top.focus();
    });
    const undismiss = () => item.classList.remove('is-dismissed');
    item.addEventListener('mouseleave', undismiss);
    item.addEventListener('focusout', (event) => {
      if (!item.contains(event.relatedTarget as Node | null)) undismiss();
    });
  }
}
