import './page-extras.css';

import { useId } from 'react';

/** A link the page may send a visitor to: an app route (`/…`) or a web address, never `javascript:`. */
export const safeHref = (url: string): string | undefined => (/^(https?:\/\/|#\/|\/)/i.test(url) ? url : undefined);

/** `400-687-5200` → `tel:4006875200`. */
export const telHref = (phone: string): string => `tel:${phone.replace(/[^\d+]/g, '')}`;

interface ContactCtaProps {
  /** 咨询热线 (`site.hotline`). */
  hotline: string;
  /** 在线订舱 (`site.bookingUrl`). */
  bookingUrl: string;
}

/** A business page's call to action: 咨询热线 and 在线订舱, each when the site has it; nothing when neither. */
export function ContactCta({ hotline, bookingUrl }: ContactCtaProps) {
  const id = useId();
  const phone = hotline.trim();
  const booking = safeHref(bookingUrl.trim());
  if (!phone && !booking) return null;
  return (
    <section className="contact-cta" aria-labelledby={`${id}-title`}>
      <div className="contact-cta__text">
        <h2 id={`${id}-title`}>业务咨询</h2>
        <p>了解班期、运价与服务方案，欢迎来电咨询{booking ? '或在线订舱' : ''}。</p>
      </div>
      <p className="contact-cta__actions">
        {phone && (
          <a className="button contact-cta__phone" href={telHref(phone)}>
            咨询热线：{phone}
          </a>
        )}
        {booking && (
          <a className="button button--ghost" href={booking}>
            在线订舱
          </a>
        )}
      </p>
    </section>
  );
}
