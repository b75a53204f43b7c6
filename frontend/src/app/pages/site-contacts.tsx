import type { Site } from '../../features/site';

/**
 * The site's own e-mail and telephone (`[site] email`, `phone`), each only when the config sets
 * it, as the statements' "whom to ask" (无障碍声明, 隐私政策, 法律声明): nothing when neither is set
 * or while `/site` loads.
 */
export function SiteContacts({ site }: { site: Site | undefined }) {
  if (!site || !(site.email || site.phone)) return null;
  return (
    <dl className="contact-list">
      {site.email && (
        <>
          <dt>电子邮箱</dt>
          <dd>
            <a href={`mailto:${site.email}`}>{site.email}</a>
          </dd>
        </>
      )}
      {site.phone && (
        <>
          <dt>联系电话</dt>
          <dd>
            <a href={`tel:${site.phone.replace(/[^\d+]/g, '')}`}>{site.phone}</a>
          </dd>
        </>
      )}
    </dl>
  );
}
