import { pageHref } from '../lib/page-href';
export interface Crumb {
  name: string;
  url?: string;
}

/** 当前位置: 首页 > 栏目 > 页面 */
export function Breadcrumb({ items }: { items: Crumb[] }) {
  return (
    <nav className="breadcrumb" aria-label="当前位置">
      <span className="breadcrumb__label">当前位置：</span>
      <ol>
        <li>
          <a href={pageHref('/')}>首页</a>
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
