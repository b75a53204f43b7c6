import './page-extras.css';

import { useId } from 'react';

import { messages } from '../lib/locale';

const text = messages({
  zh: {
    title: '业务咨询',
    lead: (booking: boolean) => `了解班期、运价与服务方案，欢迎来电咨询${booking ? '或在线订舱' : ''}。`,
    hotline: '咨询热线：',
    booking: '在线订舱',
  },
  en: {
    title: 'Business Enquiries',
    lead: (booking: boolean) =>
      `For schedules, rates and service solutions, call us${booking ? ' or book online' : ''}.`,
    hotline: 'Hotline: ',
    booking: 'Book Online',
  },
});

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
  const t = text();
  return (
    <section className="contact-cta" aria-labelledby={`${id}-title`}>
      <div className="contact-cta__text">
        <h2 id={`${id}-title`}>{t.title}</h2>
        <p>{t.lead(Boolean(booking))}</p>
      </div>
      <p className="contact-cta__actions">
        {phone && (
          <a className="button contact-cta__phone" href={telHref(phone)}>
            {t.hotline}
            {phone}
          </a>
        )}
        {booking && (
          <a className="button button--ghost" href={booking}>
            {t.booking}
          </a>
        )}
      </p>
    </section>
  );
}
