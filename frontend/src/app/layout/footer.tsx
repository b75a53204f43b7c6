import type { Site } from '../../features/site';

export function Footer({ site }: { site?: Site }) {
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer">
      <div className="container site-footer__inner">
        <div>
          <p className="site-footer__name">{site?.companyName ?? ''}</p>
          {site && (
            <address>
              <span>地址：{site.address}</span>
              {site.postcode && <span>邮编：{site.postcode}</span>}
              <span>
                电话：<a href={`tel:${site.phone.replace(/[^\d+]/g, '')}`}>{site.phone}</a>
              </span>
              {site.email && (
                <span>
                  邮箱：<a href={`mailto:${site.email}`}>{site.email}</a>
                </span>
              )}
            </address>
          )}
        </div>
        {site && (
          <p className="site-footer__legal">
            <span>
              © {year} {site.copyright}
            </span>
            {site.icpNumber && (
              <a href={site.icpUrl} target="_blank" rel="noopener noreferrer">
                {site.icpNumber}
              </a>
            )}
          </p>
        )}
      </div>
    </footer>
  );
}
