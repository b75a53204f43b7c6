import { useEffect, useId, useState } from 'react';

export interface Slide {
  image: string;
  alt: string;
  title: string;
  text: string;
  href: string;
  action: string;
}

const INTERVAL_MS = 6000;

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * The home banner: slides advance every 6 s unless paused, focused or hovered, and never on their
 * own when the visitor prefers reduced motion. Previous/next/pause are real buttons.
 */
export function Carousel({ slides, label }: { slides: Slide[]; label: string }) {
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(prefersReducedMotion);
  const [held, setHeld] = useState(false);
  const id = useId();

  useEffect(() => {
    if (paused || held || slides.length < 2) return undefined;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % slides.length), INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [paused, held, slides.length]);

  const go = (step: number) => setIndex((i) => (i + step + slides.length) % slides.length);

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
      <div className="carousel__slides" aria-live={paused ? 'polite' : 'off'}>
        {slides.map((slide, i) => (
          <div
            key={slide.href}
            id={`${id}-slide-${i}`}
            className={`carousel__slide${i === index ? ' is-active' : ''}`}
            role="group"
            aria-roledescription="slide"
            aria-label={`第 ${i + 1} 张，共 ${slides.length} 张`}
            hidden={i !== index}
          >
            <img src={slide.image} alt={slide.alt} width={1600} height={500} fetchPriority={i === 0 ? 'high' : 'low'} />
            <div className="carousel__caption container">
              <h2>{slide.title}</h2>
              <p>{slide.text}</p>
              <a className="button" href={slide.href}>
                {slide.action}
              </a>
            </div>
          </div>
        ))}
      </div>
      <div className="carousel__controls container">
        <button type="button" className="carousel__button" onClick={() => setPaused((p) => !p)}>
          {paused ? '播放' : '暂停'}
          <span className="visually-hidden">轮播</span>
        </button>
        <button type="button" className="carousel__button" onClick={() => go(-1)} aria-controls={`${id}-slide-${index}`}>
          上一张
        </button>
        <button type="button" className="carousel__button" onClick={() => go(1)} aria-controls={`${id}-slide-${index}`}>
          下一张
        </button>
        <ol className="carousel__dots">
          {slides.map((slide, i) => (
            <li key={slide.href}>
              <button
                type="button"
                aria-label={`第 ${i + 1} 张：${slide.title}`}
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
