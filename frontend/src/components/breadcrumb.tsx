import { messages } from '../lib/locale';
import { pageHref } from '../lib/page-href';

const text = messages({
  zh: { nav: '当前位置', label: '当前位置：', home: '首页' },
  en: { nav: 'Breadcrumb', label: 'You are here:\u00a0', home: 'Home' },
});

export interface Crumb {
  name: string;
  url?: string;
}

/** 当前位置: 首页 > 栏目 > 页面 */
export function Breadcrumb({ items }: { items: Crumb[] }) {
  const t = text();
  return (
    <nav className="breadcrumb" aria-label={t.nav}>
      <span className="breadcrumb__label">{t.label}</span>
      <ol>
        <li>
          <a href={pageHref('/')}>{t.home}</a>
        </li>
        {items.map((item, i) => (
          <li key={`${item.name}-${i}`}>
            {item.url && i < items.length - 1 ? (
              <a href={pageHref(item.url)}>{item.name}</a>
            ) : (
              <span aria-current={i === items.length - 1 ? 'page' : undefined}>{item.name}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
