import type { ContentPageProps } from '../../features/articles';

/** 无障碍声明: what the 关怀版 offers and how to reach the site's maintainers. */
export default function AccessibilityPage({ title }: ContentPageProps) {
  return (
    <section className="content-page">
      <h1>{title}</h1>
    </section>
  );
}
