import { useEffect, useId, useRef, useState, type TouchEvent } from 'react';

import './carousel.css';
import { messages } from '../lib/locale';
import { useMediaQuery } from '../lib/media-query';

const text = messages({
  zh: {
    slide: (n: number, of: number) => `第 ${n} 张，共 ${of} 张`,
    play: '播放',
    pause: '暂停',
    carousel: '轮播',
    prev: '上一张',
    next: '下一张',
    dot: (n: number, title: string) => `第 ${n} 张：${title}`,
  },
  en: {
    slide: (n: number, of: number) => `${n} of ${of}`,
    play: 'Play',
    pause: 'Pause',
    carousel: ' slideshow',
    prev: 'Previous',
    next: 'Next',
    dot: (n: number, title: string) => `Slide ${n}: ${title}`,
  },
});

/** One photo-news slide: a picture and its caption, both one link to the story. */
export interface Slide {
  image: string;
  /** Empty when the caption says what the picture shows (the link's name is the caption). */
  alt: string;
  title: string;
  /** A second caption line (the date). */
  text?: string;
  href: string;
}

const INTERVAL_MS = 6000;
/** A horizontal move this long (CSS px), and longer than it is tall, turns the slide. */
const SWIPE_PX = 40;

interface CarouselProps {
  slides: Slide[];
  label: string;
  /** Start paused (哀悼模式): the visitor may still play it. */
  stopped?: boolean;
}

/**
 * The home page's 图片新闻: slides advance every 6 s unless paused, focused or hovered, and never on
 * their own when the visitor prefers reduced motion or the site says stop. Previous/next/pause are
 * real buttons; on touch screens a swipe turns the slide. The first picture loads first (the
 * largest paint of the page); the others lazily.
 */
export function Carousel({ slides, label, stopped = false }: CarouselProps) {
  const [index, setIndex] = useState(0);
  // The visitor's own play/pause wins; until they press it, motion preference and the site decide.
  const [choice, setChoice] = useState<boolean | null>(null);
  // False on the server and in the first render that hydrates its markup; the preference follows.
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const paused = choice ?? (stopped || reducedMotion);
  const [held, setHeld] = useState(false);
  const id = useId();
  const touch = useRef<{ x: number; y: number } | null>(null);

  useEffect(() => {
    if (paused || held || slides.length < 2) return undefined;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % slides.length), INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [paused, held, slides.length]);

  const go = (step: number) => setIndex((i) => (i + step + slides.length) % slides.length);
  const onTouchStart = (e: TouchEvent) => {
    const point = e.touches[0];
    touch.current = e.touches.length === 1 && point ? { x: point.clientX, y: point.clientY } : null;
  };
  const onTouchEnd = (e: TouchEvent) => {
    const start = touch.current;
    const point = e.changedTouches[0];
    touch.current = null;
    if (!start || !point) return;
    const dx = point.clientX - start.x;
    if (Math.abs(dx) >= SWIPE_PX && Math.abs(dx) > Math.abs(point.clientY - start.y)) {
      // A swipe that ends on the caption's link must not follow it.
      e.preventDefault();
      go(dx < 0 ? 1 : -1);
    }
  };
  const t = text();

  return (
    <section
      className="carousel"
      aria-roledescription="carousel"
      aria-label={label}
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={(e) => !e.currentTarget.contains(e.relatedTarget as Node | null) && setHeld(false)}
    >
      <div
        className="carousel__slides"
        aria-live={paused ? 'polite' : 'off'}
        onTouchStart={onTouchStart}
        onTouchEnd={onTouchEnd}
        onTouchCancel={() => (touch.current = null)}
      >
        {slides.map((slide, i) => (
          <div
            key={slide.href}
            id={`${id}-slide-${i}`}
            className={`carousel__slide${i === index ? ' is-active' : ''}`}
            role="group"
            aria-roledescription="slide"
            aria-label={t.slide(i + 1, slides.length)}
            hidden={i !== index}
          >
            <a className="carousel__link" href={slide.href}>
              <img
                src={slide.image}
                alt={slide.alt}
                width={1200}
                height={675}
                fetchPriority={i === 0 ? 'high' : 'low'}
                loading={i === 0 ? 'eager' : 'lazy'}
              />
              <div className="carousel__caption">
                <h3 className="carousel__title">{slide.title}</h3>
                {slide.text && <p className="carousel__text">{slide.text}</p>}
              </div>
            </a>
          </div>
        ))}
      </div>
      <div className="carousel__controls">
        <button type="button" className="carousel__button" onClick={() => setChoice(!paused)}>
          {paused ? t.play : t.pause}
          <span className="visually-hidden">{t.carousel}</span>
        </button>
        <button type="button" className="carousel__button" onClick={() => go(-1)} aria-controls={`${id}-slide-${index}`}>
          {t.prev}
        </button>
        <button type="button" className="carousel__button" onClick={() => go(1)} aria-controls={`${id}-slide-${index}`}>
          {t.next}
        </button>
        <ol className="carousel__dots">
          {slides.map((slide, i) => (
            <li key={slide.href}>
              <button
                type="button"
                aria-label={t.dot(i + 1, slide.title)}
                aria-current={i === index ? 'true' : undefined}
                onClick={() => setIndex(i)}
              />
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

/**
 * The carousel's room while its slides load: the same picture box, caption lines and control bar,
 * so nothing below moves when the slides arrive.
 */
export function CarouselPlaceholder() {
  return (
    <div className="carousel carousel--placeholder" aria-hidden="true">
      <div className="carousel__slide">
        <div className="carousel__image-box" />
        <div className="carousel__caption">
          <p className="carousel__title" />
          <p className="carousel__text">&nbsp;</p>
        </div>
      </div>
      <div className="carousel__controls">
        <span className="carousel__button" />
        <span className="carousel__dots" />
      </div>
    </div>
  );
}
