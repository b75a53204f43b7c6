import type { Site } from '../../features/site';
import { messages } from '../../lib/locale';

const text = messages({
  zh: { email: '电子邮箱', phone: '联系电话' },
  en: { email: 'Email', phone: 'Telephone' },
});

/**
 * The site's own e-mail and telephone (`[site] email`, `phone`), each only when the config sets
 * it, as the statements' "whom to ask" (无障碍声明, 隐私政策, 法律声明): nothing when neither is set
 * or while `/site` loads.
 */
export function SiteContacts({ site }: { site: Site | undefined }) {
  if (!site || !(site.email || site.phone)) return null;
  const t = text();
  return (
    <dl className="contact-list">
      {site.email && (
        <>
          <dt>{t.email}</dt>
          <dd>
            <a href={`mailto:${site.email}`}>{site.email}</a>
          </dd>
        </>
      )}
      {site.phone && (
        <>
          <dt>{t.phone}</dt>
          <dd>
            <a href={`tel:${site.phone.replace(/[^\d+]/g, '')}`}>{site.phone}</a>
          </dd>
        </>
      )}
    </dl>
  );
}
