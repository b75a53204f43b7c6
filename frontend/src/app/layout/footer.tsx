import './footer.css';

import { WHISTLEBLOWING_PATH, hasChannel } from '../../components/whistleblowing';
import { chinaDate, type Site } from '../../features/site';
import { locale, messages } from '../../lib/locale';
import { pageHref } from '../../lib/page-href';

const text = messages({
  zh: {
    address: '地址：',
    postcode: '邮编：',
    phone: '电话：',
    email: '邮箱：',
    nav: '页脚导航',
    sitemap: '网站地图',
    contact: '联系我们',
    whistleblowing: '信访举报',
    liaison: '联络合作',
    careers: '人才招聘',
    accessibility: '无障碍声明',
    legal: '法律声明',
    privacy: '隐私政策',
    links: '友情链接',
    wechatQr: (name: string) => `微信公众号“${name}”的二维码`,
    wechat: '微信公众号',
    wechatId: '微信号：',
    top: '返回顶部',
    rights: (company: string) => `${company} 版权所有`,
  },
  en: {
    address: 'Address: ',
    postcode: 'Postcode: ',
    phone: 'Tel: ',
    email: 'Email: ',
    nav: 'Footer',
    sitemap: 'Site Map',
    contact: 'Contact Us',
    whistleblowing: 'Report Misconduct',
    liaison: 'Cooperation',
    careers: 'Careers',
    accessibility: 'Accessibility Statement',
    legal: 'Legal Notice',
    privacy: 'Privacy Policy',
    links: 'Links',
    wechatQr: (name: string) => `QR code of the WeChat official account “${name}”`,
    wechat: 'WeChat Official Account',
    wechatId: 'WeChat ID: ',
    top: 'Back to top',
    rights: (company: string) => `${company}. All rights reserved.`,
  },
});

/**
 * The public-security filing mark beside its number, drawn here after the emblem's layout (the
 * ministry's own image is not ours to ship): a gold-rimmed shield, a gold star on blue above, a
 * gate on red below.
 */
function FilingEmblem() {
  return (
    <svg className="filing-emblem" viewBox="0 0 20 22" width="18" height="20" aria-hidden="true" focusable="false">
      <path d="M10 .8 1.6 3.6v6.6c0 5 3.5 9.2 8.4 11 4.9-1.8 8.4-6 8.4-11V3.6z" fill="#d4a017" />
      <path d="M10 2.3 3 4.6v5.6c0 4.2 2.9 7.8 7 9.4 4.1-1.6 7-5.2 7-9.4V4.6z" fill="#c8102e" />
      <path d="M3 4.6 10 2.3l7 2.3v3.7H3z" fill="#1d3f8f" />
      <path d="m10 3.1.8 1.7 1.9.2-1.4 1.3.4 1.9L10 7.3l-1.7.9.4-1.9-1.4-1.3 1.9-.2z" fill="#f5d142" />
      <path d="M5.2 14.6h9.6v-1.2H5.2zm.8-1.6h8v-2.2H6zm1.2-2.6h5.6l-.9-1.3H8.1z" fill="#f5d142" />
      <path d="M8.3 13h1.1v-1.4H8.3zm2.3 0h1.1v-1.4h-1.1z" fill="#c8102e" />
    </svg>
  );
}

export function Footer({ site, liaison = false, careers = false }: { site?: Site; liaison?: boolean; careers?: boolean }) {
  // China's year, not the machine's: the gateway's render and the visitor's browser (another time
  // zone at New Year) must write the same markup.
  const year = chinaDate(new Date()).slice(0, 4);
  const t = text();
  const filingLang = locale() === 'en' ? 'zh-CN' : undefined;
  return (
    <footer className="site-footer">
      <div className="container site-footer__inner">
        <div>
          <p className="site-footer__name">{site?.companyName ?? ''}</p>
          {site && (site.address || site.phone || site.email) && (
            <address>
              {site.address && (
                <span>
                  {t.address}
                  {site.address}
                </span>
              )}
              {site.postcode && (
                <span>
                  {t.postcode}
                  {site.postcode}
                </span>
              )}
              {site.phone && (
                <span>
                  {t.phone}
                  <a href={`tel:${site.phone.replace(/[^\d+]/g, '')}`}>{site.phone}</a>
                </span>
              )}
              {site.email && (
                <span>
                  {t.email}
                  <a href={`mailto:${site.email}`}>{site.email}</a>
                </span>
              )}
            </address>
          )}
          <nav className="site-footer__links" aria-label={t.nav}>
            <a href={pageHref('/sitemap')}>{t.sitemap}</a>
            <a href={pageHref('/contact')}>{t.contact}</a>
            {hasChannel(site?.whistleblowing) && <a href={pageHref(WHISTLEBLOWING_PATH)}>{t.whistleblowing}</a>}
            {liaison && <a href={pageHref('/liaison')}>{t.liaison}</a>}
            {careers && <a href={pageHref('/careers')}>{t.careers}</a>}
            <a href={pageHref('/accessibility')}>{t.accessibility}</a>
            <a href={pageHref('/legal')}>{t.legal}</a>
            <a href={pageHref('/privacy')}>{t.privacy}</a>
          </nav>
        </div>
        {site && site.links.length > 0 && (
          <nav className="site-footer__friends" aria-labelledby="footer-links-title">
            <h2 id="footer-links-title">{t.links}</h2>
            <ul>
              {site.links.map((link) => (
                <li key={link.name}>
                  <a href={link.url} target="_blank" rel="noopener noreferrer">
                    {link.name}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
        {site?.wechat.name && (
          <div className="site-footer__wechat">
            {site.wechat.qrImage && (
              <img src={site.wechat.qrImage} alt={t.wechatQr(site.wechat.name)} width={96} height={96} loading="lazy" />
            )}
            <p>
              <span>{t.wechat}</span>
              <strong>{site.wechat.name}</strong>
              {site.wechat.account && (
                <span>
                  {t.wechatId}
                  {site.wechat.account}
                </span>
              )}
            </p>
          </div>
        )}
        {site && (
          <p className="site-footer__legal">
            {/* To the top of the page, without a script (`#top` is the document's top); the
                browser's next Tab starts there too. */}
            <a className="site-footer__top" href="#top">
              {t.top}
            </a>
            <span>
              © {year} {site.copyright || t.rights(site.companyName)}
            </span>
            {/* The filing numbers are written in Chinese by law, whatever the page's language: said
                so, for a screen reader's voice and for the English pages' check. */}
            {site.icpNumber && (
              <a href={site.icpUrl} target="_blank" rel="noopener noreferrer" lang={filingLang}>
                {site.icpNumber}
              </a>
            )}
            {site.policeFilingNumber && (
              <span className="site-footer__filing" lang={filingLang}>
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
