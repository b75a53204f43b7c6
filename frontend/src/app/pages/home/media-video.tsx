import { messages } from '../../../lib/locale';
import { pageHref } from '../../../lib/page-href';
import { HOME_LISTS } from './home-lists';
import { NewsColumn } from './news-lines';
import { useCategoryArticles, type CategoryArticles } from './use-category-articles';

const { media: MEDIA, video: VIDEO } = HOME_LISTS;

const text = messages({
  zh: { video: '宣传视频', media: '媒体聚焦' },
  en: { video: 'Promotional Video', media: 'In the Media' },
});

/** 宣传视频 as a home tile: the video page's title and summary, its cover when the CMS has one. */
function VideoCard({ video }: { video: CategoryArticles }) {
  const page = video.articles[0];
  return (
    <section className="home-column home-video" aria-labelledby="home-video-title" aria-busy={video.loading}>
      <div className="section-head">
        <h2 id="home-video-title">{video.category?.name ?? text().video}</h2>
      </div>
      {video.category && (
        <a className="home-video__link" href={pageHref(VIDEO.route)}>
          <span className="home-video__frame">
            {page?.cover && <img src={page.cover} alt="" width={640} height={360} loading="lazy" />}
            <span className="home-video__play" aria-hidden="true" />
          </span>
          <strong className="home-video__title">{page?.title ?? video.category.name}</strong>
          {page?.summary && <span className="home-video__text">{page.summary}</span>}
        </a>
      )}
    </section>
  );
}

/** 媒体聚焦 (the 媒体报道 list) beside 宣传视频; each only when the CMS has it. */
export function MediaVideoRow() {
  const media = useCategoryArticles(MEDIA);
  const video = useCategoryArticles(VIDEO);
  const shows = (list: CategoryArticles) => Boolean(list.category) || list.loading;
  if (!shows(media) && !shows(video)) return null;
  return (
    <div className="container home-media-row">
      {shows(media) && (
        <NewsColumn
          id="home-media-title"
          title={text().media}
          route={MEDIA.route}
          articles={media.articles}
          loading={media.loading}
          lines={6}
          className="home-column--media"
        />
      )}
      {shows(video) && <VideoCard video={video} />}
    </div>
  );
}
