import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";

export const PLACEHOLDER_IMAGE = "/placeholder.svg";
export const SWIPE_THRESHOLD_PX = 50;
export const MAX_DRAG_FRACTION = 0.3;
export const TRANSITION_LOCK_MS = 300;

interface CarouselProps {
  images: string[];
  alt: string;
  /** Called when the image itself is activated (click/Enter), e.g. to open a gallery. */
  onOpen?: (index: number) => void;
  className?: string;
}

/**
 * Photo carousel: arrow keys, touch/pointer swipe (50 px threshold, drag limited to 30 % of the
 * width), a 300 ms lock between moves, the previous/current/next images preloaded, and a
 * placeholder for any image that fails to load.
 */
export function Carousel({ images, alt, onOpen, className = "" }: CarouselProps) {
  const [index, setIndex] = useState(0);
  const [drag, setDrag] = useState(0);
  const [failed, setFailed] = useState<Set<number>>(() => new Set());
  const locked = useRef(false);
  const start = useRef<{ x: number; width: number } | null>(null);
  const count = images.length;

  useEffect(() => {
    // Preload neighbours so a swipe never shows an empty frame.
    for (const i of [index - 1, index + 1]) {
      const src = images[(i + count) % count];
      if (src && count > 1) new Image().src = src;
    }
  }, [index, images, count]);

  function go(step: number) {
    if (count < 2 || locked.current) return;
    locked.current = true;
    setIndex((i) => (i + step + count) % count);
    window.setTimeout(() => (locked.current = false), TRANSITION_LOCK_MS);
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === "ArrowRight") go(1);
    else if (event.key === "ArrowLeft") go(-1);
    else if (event.key === "Enter" && onOpen) onOpen(index);
    else return;
    event.preventDefault();
    event.stopPropagation();
  }

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    if (count < 2) return;
    start.current = { x: event.clientX, width: event.currentTarget.clientWidth };
  }
  function onPointerMove(event: PointerEvent) {
    if (!start.current) return;
    const max = start.current.width * MAX_DRAG_FRACTION;
    setDrag(Math.max(-max, Math.min(max, event.clientX - start.current.x)));
  }
  function onPointerUp() {
    if (!start.current) return;
    if (drag <= -SWIPE_THRESHOLD_PX) go(1);
    else if (drag >= SWIPE_THRESHOLD_PX) go(-1);
    start.current = null;
    setDrag(0);
  }

  const src = count === 0 || failed.has(index) ? PLACEHOLDER_IMAGE : images[index]!;
  return (
    <div
      className={`carousel ${className}`}
      role="group"
      aria-roledescription="carousel"
      aria-label={`${alt}: photo ${count ? index + 1 : 0} of ${count}`}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onPointerLeave={onPointerUp}
    >
      <img
        key={src}
        src={src}
        alt={`${alt}, photo ${index + 1}`}
        loading="lazy"
        decoding="async"
        draggable={false}
        style={{ transform: drag ? `translateX(${drag}px)` : undefined }}
        onError={() => setFailed((f) => new Set(f).add(index))}
        onClick={onOpen ? () => !drag && onOpen(index) : undefined}
      />
      {count > 1 && (
        <>
          <button type="button" className="carousel-arrow carousel-prev" aria-label="Previous photo" tabIndex={-1} onClick={(e) => { e.preventDefault(); e.stopPropagation(); go(-1); }}>
            ‹
          </button>
          <button type="button" className="carousel-arrow carousel-next" aria-label="Next photo" tabIndex={-1} onClick={(e) => { e.preventDefault(); e.stopPropagation(); go(1); }}>
            ›
          </button>
          <span className="carousel-dots" aria-hidden="true">
            {images.map((_, i) => (
              <span key={i} className={i === index ? "active" : ""} />
            ))}
          </span>
        </>
      )}
    </div>
  );
}
