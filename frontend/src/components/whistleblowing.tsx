import './page-extras.css';

import { useId } from 'react';

import type { Whistleblowing } from '../lib/api-types';
import { messages } from '../lib/locale';
import { pageHref } from '../lib/page-href';
import { telHref } from './contact-cta';

const text = messages({
  zh: {
    phone: '举报电话',
    email: '举报邮箱',
    address: '来信地址',
    hours: '接待时间',
    website: '网上举报',
    title: '信访举报',
    lead: '对党员干部和管理人员违纪违法、违反廉洁从业规定的问题，欢迎来电、来信、来访反映。',
    more: '受理范围与举报须知',
  },
  en: {
    phone: 'Telephone',
    email: 'Email',
    address: 'Postal address',
    hours: 'Reception hours',
    website: 'Online reporting',
    title: 'Report Misconduct',
    lead: 'Violations of discipline or law by Party members, officials or managers, and breaches of the integrity rules, may be reported by telephone, by letter or in person.',
    more: 'What we handle and how to report',
  },
});

/** The 信访举报 page's address (`route-table.json`). */
export const WHISTLEBLOWING_PATH = '/whistleblowing';

/**
 * Whether the site has a way to report (a telephone, an e-mail, a postal address or the national
 * website: reception hours alone are none). Without one there is no page, link or block.
 */
export const hasChannel = (channel: Whistleblowing | undefined): channel is Whistleblowing =>
  !!channel && [channel.phone, channel.email, channel.address, channel.website].some((s) => s.trim() !== '');

/** The channel's lines, each only when set. */
export function WhistleblowingChannels({ channel }: { channel: Whistleblowing }) {
  const phone = channel.phone.trim();
  const email = channel.email.trim();
  const address = channel.address.trim();
  const hours = channel.hours.trim();
  const website = channel.website.trim();
  const t = text();
  return (
    <dl className="contact-list">
      {phone && (
        <>
          <dt>{t.phone}</dt>
          <dd>
            <a href={telHref(phone)}>{phone}</a>
          </dd>
        </>
      )}
      {email && (
        <>
          <dt>{t.email}</dt>
          <dd>
            <a href={`mailto:${email}`}>{email}</a>
          </dd>
        </>
      )}
      {address && (
        <>
          <dt>{t.address}</dt>
          <dd>{address}</dd>
        </>
      )}
      {hours && (
        <>
          <dt>{t.hours}</dt>
          <dd>{hours}</dd>
        </>
      )}
      {website && (
        <>
          <dt>{t.website}</dt>
          <dd>
            <a href={website} target="_blank" rel="noopener noreferrer">
              {website.replace(/^https?:\/\//, '').replace(/\/$/, '')}
            </a>
          </dd>
        </>
      )}
    </dl>
  );
}

/**
 * 信访举报 on 清正廉洁: how to reach the discipline inspection office, and the way to its page (the
 * scope and the rules of reporting); no block unless there is a way to report.
 */
export function WhistleblowingBlock({ channel }: { channel: Whistleblowing }) {
  const id = useId();
  if (!hasChannel(channel)) return null;
  const t = text();
  return (
    <section className="whistleblowing" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t.title}</h2>
      <p>{t.lead}</p>
      <WhistleblowingChannels channel={channel} />
      <p className="whistleblowing__more">
        <a href={pageHref(WHISTLEBLOWING_PATH)}>{t.more}</a>
      </p>
    </section>
  );
}
