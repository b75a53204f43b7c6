import { useEffect, useRef, useState } from 'react';

interface VideoPlayerProps {
  src: string;
  poster?: string;
  title: string;
  /** The CMS's WebVTT captions (`captions`), shown by default: a film in a public hall plays muted. */
  captions?: string;
}

/** An HTML5 video with poster, controls and captions, and a plain Chinese message when it cannot play. */
export function VideoPlayer({ src, poster, title, captions }: VideoPlayerProps) {
  const [failed, setFailed] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  // The server's page starts loading the video before the app runs: an error that came before the
  // app was there to hear it is read from the element once the app is.
  useEffect(() => {
    if (video.current?.error) setFailed(true);
  }, []);
  if (failed) {
    return (
      <div className="video video--failed" role="status">
        {poster && <img src={poster} alt={`${title}封面`} width={640} height={360} />}
        <p>
          <strong>视频暂时无法播放。</strong>
          视频文件未能加载，可能是网络问题或文件正在更新，请稍后再试；也可以阅读下方的影片介绍。
        </p>
      </div>
    );
  }
  return (
    <div className="video">
      {/* Without a caption file from the CMS the page's text describes the film. */}
      {/* eslint-disable-next-line jsx-a11y/media-has-caption */}
      <video ref={video} controls preload="metadata" poster={poster} src={src} onError={() => setFailed(true)} aria-label={title}>
        {captions && <track kind="captions" src={captions} srcLang="zh-CN" label="中文字幕" default />}
        <p>您的浏览器不支持视频播放，请阅读下方的影片介绍。</p>
      </video>
    </div>
  );
}
