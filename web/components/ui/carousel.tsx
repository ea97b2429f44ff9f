import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";

export const PLACEHOLDER_IMAGE = "/placeholder.svg";
/** web/public/placeholder.svg's own size (its viewBox). */
export const PLACEHOLDER_SIZE = { width: 400, height: 300 } as const;
/**
 * The sizes of a listing's photos, made in the browser at upload (lib/upload.ts):
 * a card thumbnail cropped to exactly 480x320 (3:2) and the full photo fitted within 1920x1080.
 */
export const THUMBNAIL_SIZE = { width: 480, height: 320 } as const;
export const FULL_PHOTO_SIZE = { width: 1920, height: 1080 } as const;
/**
 * A card's width in the browse grid (styles.css: .container max 1200 px with 16 px padding,
 * .listing-grid columns of at least 260 px with 20 px gaps): one column on phones, then 2, 3, 4.
 */
export const CARD_IMAGE_SIZES =
  "(max-width: 571px) calc(100vw - 32px), (max-width: 851px) calc(50vw - 26px), (max-width: 1131px) calc(33.34vw - 24px), 277px";
/**
 * A listing page's photo: the carousel across the page on phones and tablets, the main column next
 * to the 340 px contact card from 960 px (.listing-layout).
 */
export const LISTING_IMAGE_SIZES = "(max-width: 959px) calc(100vw - 32px), min(804px, calc(100vw - 396px))";

export interface PhotoAttributes {
  src: string;
  srcSet?: string;
  sizes?: string;
  width: number;
  height: number;
  loading: "eager" | "lazy";
  decoding?: "async";
  fetchPriority?: "high";
}

/**
 * The <img> attributes of one listing photo: the thumbnail and the full photo as `srcset` candidates
 * (w descriptors) so the browser takes the size that fits the slot, explicit width and height
 * (reserving the box before the bytes arrive), and either high priority (the one photo that is the
 * page's largest paint) or lazy loading. A failed photo or no photo gives the placeholder.
 */
export function photoAttributes({
  full,
  thumbnail,
  sizes,
  priority = false,
  failed = false,
  thumbnailOnly = false,
}: {
  full?: string;
  thumbnail?: string;
  thumbnailOnly?: boolean;
  sizes?: string;
  priority?: boolean;
  failed?: boolean;
}): PhotoAttributes {
  // Key order is the order React sets them on a new <img>: loading, sizes and srcset before src, so
  // a lazy image is not fetched at once and the browser never starts on the fallback src.
  const loadingAttrs = priority ? ({ loading: "eager", fetchPriority: "high" } as const) : ({ loading: "lazy", decoding: "async" } as const);
  const src = failed ? undefined : (thumbnail ?? full);
  if (!src || src === PLACEHOLDER_IMAGE) return { ...loadingAttrs, ...PLACEHOLDER_SIZE, src: PLACEHOLDER_IMAGE };
  // Without a separate thumbnail (older listings carry the full URL twice) there is one candidate.
  const both = full && thumbnail && full !== thumbnail;
  return {
    ...loadingAttrs,
    ...(both && sizes ? { sizes, srcSet: `${thumbnail} ${THUMBNAIL_SIZE.width}w, ${full} ${FULL_PHOTO_SIZE.width}w` } : {}),
    // Cards: the thumbnail is the one candidate on every screen (offered the full photo too, a phone
    // at 2-3x picks the 1920 px photo for every card).
    ...(thumbnailOnly && thumbnail && sizes ? { sizes, srcSet: `${thumbnail} ${THUMBNAIL_SIZE.width}w` } : {}),
    ...(thumbnail ? THUMBNAIL_SIZE : FULL_PHOTO_SIZE),
    src,
  };
}

export const SWIPE_THRESHOLD_PX = 50;
export const MAX_DRAG_FRACTION = 0.3;
export const TRANSITION_LOCK_MS = 300;

interface CarouselProps {
  /** The photos (full size where `thumbnails` is given). */
  images: string[];
  /** Small versions, same order: shown as `src` and offered with the full photo in `srcset`. */
  thumbnails?: string[];
  /** The `sizes` of the slot (CARD_IMAGE_SIZES, LISTING_IMAGE_SIZES); without it no `srcset`. */
  sizes?: string;
  /** Cards: the thumbnails only, never the full photos (a card is at most 480 px wide). */
  thumbnailsOnly?: boolean;
  /** The page's main image: the first photo loads eagerly at high priority (else lazily). */
  priority?: boolean;
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
export function Carousel({ images, thumbnails, thumbnailsOnly = false, sizes, priority = false, alt, onOpen, className = "" }: CarouselProps) {
  const [index, setIndex] = useState(0);
  const [drag, setDrag] = useState(0);
  const [failed, setFailed] = useState<Set<number>>(() => new Set());
  const locked = useRef(false);
  const start = useRef<{ x: number; width: number } | null>(null);
  const count = images.length;

  // Neighbours preload once the carousel is wanted (a pointer over it, a touch, focus) and after each
  // move, so a swipe never shows an empty frame; not at mount, where every card's neighbours would
  // compete with the first screen's own photos and hydration (docs/decisions/023).
  const [wanted, setWanted] = useState(false);
  const want = () => setWanted(true);
  useEffect(() => {
    // Same srcset and sizes as the <img>, so the browser fetches the candidate it will show.
    if (count < 2 || !wanted) return;
    for (const i of [index - 1, index + 1]) {
      const n = (i + count) % count;
      const photo = photoAttributes({ full: thumbnailsOnly ? undefined : images[n], thumbnail: thumbnails?.[n], sizes, thumbnailOnly: thumbnailsOnly });
      const preload = new Image();
      if (photo.srcSet && photo.sizes) {
        preload.sizes = photo.sizes;
        preload.srcset = photo.srcSet;
      }
      preload.src = photo.src;
    }
  }, [wanted, index, images, thumbnails, thumbnailsOnly, sizes, count]);

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

  // Only the first photo can be the page's largest paint: the others stay lazy.
  const photo = photoAttributes({
    full: thumbnailsOnly ? undefined : images[index],
    thumbnailOnly: thumbnailsOnly,
    thumbnail: thumbnails?.[index],
    sizes,
    priority: priority && index === 0,
    failed: count === 0 || failed.has(index),
  });
  return (
    <div
      className={`carousel ${className}`}
      role="group"
      aria-roledescription="carousel"
      aria-label={`${alt}: photo ${count ? index + 1 : 0} of ${count}`}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onFocus={want}
      onPointerEnter={want}
      onTouchStart={want}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onPointerLeave={onPointerUp}
    >
      <img
        key={photo.src}
        {...photo}
        alt={`${alt}, photo ${index + 1}`}
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
