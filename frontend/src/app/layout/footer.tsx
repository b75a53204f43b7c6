import { chinaDate, type Site } from '../../features/site';
import { pageHref } from '../../lib/page-href';

/** The public-security filing mark beside its number: a drawn shield (the ministry's own image is not ours to ship). */
function FilingEmblem() {
  return (
    <svg className="filing-emblem" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
      <path d="M10 1 3 4v5c0 4.4 3 8.3 7 9.9 4-1.6 7-5.5 7-9.9V4z" fill="#1f5fa8" stroke="#e8c15a" strokeWidth="1.2" />
      <path d="m10 5.2 1.3 2.7 3 .4-2.2 2.1.5 3-2.6-1.4-2.6 1.4.5-3-2.2-2.1 3-.4z" fill="#e8c15a" />
    </svg>
  );
}

export function Footer({ site, liaison = false }: { site?: Site; liaison?: boolean }) {
  // China's year, not the machine's: the gateway's render and the visitor's browser (another time
  // zone at New Year) must write the same markup.
  const year = chinaDate(new Date()).slice(0, 4);
  return (
    <footer className="site-footer">
      <div className="container site-footer__inner">
        <div>
          <p className="site-footer__name">{site?.companyName ?? ''}</p>
          {site && (site.address || site.phone || site.email) && (
            <address>
              {site.address && <span>地址：{site.address}</span>}
              {site.postcode && <span>邮编：{site.postcode}</span>}
              {site.phone && (
                <span>
                  电话：<a href={`tel:${site.phone.replace(/[^\d+]/g, '')}`}>{site.phone}</a>
                </span>
              )}
              {site.email && (
                <span>
                  邮箱：<a href={`mailto:${site.email}`}>{site.email}</a>
                </span>
              )}
            </address>
          )}
          <nav className="site-footer__links" aria-label="页脚导航">
            <a href={pageHref('/sitemap')}>网站地图</a>
            <a href={pageHref('/contact')}>联系我们</a>
            {liaison && <a href={pageHref('/liaison')}>联络合作</a>}
          </nav>
        </div>
        {site && (
          <p className="site-footer__legal">
            <span>
              © {year} {site.copyright || `${site.companyName} 版权所有`}
            </span>
            {site.icpNumber && (
              <a href={site.icpUrl} target="_blank" rel="noopener noreferrer">
                {site.icpNumber}
              </a>
            )}
            {site.policeFilingNumber && (
              <span className="site-footer__filing">
                <FilingEmblem />
                {site.policeFilingUrl ? (
                  <a href={site.policeFilingUrl} target="_blank" rel="noopener noreferrer">
                    {site.policeFilingNumber}
                  </a>
                ) : (
                  site.policeFilingNumber
                )}
              </span>
            )}
          </p>
        )}
      </div>
    </footer>
  );
}
