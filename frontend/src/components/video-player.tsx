import { useEffect, useRef, useState } from 'react';

import { htmlLangOf, locale, messages } from '../lib/locale';

const text = messages({
  zh: {
    poster: (title: string) => `${title}封面`,
    failed: '视频暂时无法播放。',
    failedMore: '视频文件未能加载，可能是网络问题或文件正在更新，请稍后再试；也可以阅读下方的影片介绍。',
    captions: '中文字幕',
    unsupported: '您的浏览器不支持视频播放，请阅读下方的影片介绍。',
  },
  en: {
    poster: (title: string) => `Cover image of ${title}`,
    failed: 'The video cannot be played at the moment. ',
    failedMore:
      'The video file could not be loaded, perhaps because of a network problem or because the file is being updated. Please try again later, or read the description of the film below.',
    captions: 'English',
    unsupported: 'Your browser does not support video playback. Please read the description of the film below.',
  },
});

interface VideoPlayerProps {
  src: string;
  poster?: string;
  title: string;
  /** The CMS's WebVTT captions (`captions`), shown by default: a film in a public hall plays muted. */
  captions?: string;
}

/**
 * An HTML5 video with poster, controls and captions, and a plain message when it cannot play. The
 * captions are the CMS's in the page's language (its English content's on an English page).
 */
export function VideoPlayer({ src, poster, title, captions }: VideoPlayerProps) {
  const [failed, setFailed] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  // The server's page starts loading the video before the app runs: an error that came before the
  // app was there to hear it is read from the element once the app is.
  useEffect(() => {
    if (video.current?.error) setFailed(true);
  }, []);
  const t = text();
  if (failed) {
    return (
      <div className="video video--failed" role="status">
        {poster && <img src={poster} alt={t.poster(title)} width={640} height={360} />}
        <p>
          <strong>{t.failed}</strong>
          {t.failedMore}
        </p>
      </div>
    );
  }
  return (
    <div className="video">
      {/* Without a caption file from the CMS the page's text describes the film. */}
      {/* eslint-disable-next-line jsx-a11y/media-has-caption */}
      <video ref={video} controls preload="metadata" poster={poster} src={src} onError={() => setFailed(true)} aria-label={title}>
        {captions && <track kind="captions" src={captions} srcLang={htmlLangOf(locale())} label={t.captions} default />}
        <p>{t.unsupported}</p>
      </video>
    </div>
  );
}
