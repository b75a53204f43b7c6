import { ContactCta } from '../../../components/contact-cta';
import { WhistleblowingBlock } from '../../../components/whistleblowing';
import type { PageExtras as Extras } from '../types';

/** The app's additions under a page's content: a business page's call to action, 清正廉洁's 信访举报. */
export function PageExtras({ extras }: { extras?: Extras }) {
  if (!extras) return null;
  return (
    <>
      {extras.whistleblowing && <WhistleblowingBlock channel={extras.whistleblowing} />}
      {extras.contact && <ContactCta hotline={extras.contact.hotline} bookingUrl={extras.contact.bookingUrl} />}
    </>
  );
}
