import { useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { LISTING_IMAGE_SIZES, PLACEHOLDER_IMAGE, PLACEHOLDER_SIZE, photoAttributes } from "../../../components/ui/carousel";

interface ListingPhotoProps {
  /** The full-size photo. */
  full?: string;
  /** Its thumbnail (480x320): the src, and with `full` a srcset candidate. */
  thumbnail?: string;
  alt: string;
  /** The slot's `sizes`: the listing page's photo width by default. */
  sizes?: string;
  /** The listing's main photo: eager and high priority (the page's largest paint). Else lazy. */
  priority?: boolean;
}

/**
 * One photo of a listing page (the main photo, a thumbnail of the strip): the size that fits the
 * screen (srcset + sizes), explicit width and height, the placeholder when it fails.
 */
export function ListingPhoto(props: ListingPhotoProps) {
  // A new photo starts without the previous one's failure.
  return <ListingPhotoImage key={`${props.full ?? ""} ${props.thumbnail ?? ""}`} {...props} />;
}

function ListingPhotoImage({ full, thumbnail, alt, sizes = LISTING_IMAGE_SIZES, priority = false }: ListingPhotoProps) {
  const [failed, setFailed] = useState(false);
  return <img {...photoAttributes({ full, thumbnail, sizes, priority, failed })} alt={alt} onError={() => setFailed(true)} />;
}

interface GalleryProps {
  images: string[];
  title: string;
  start: number | null;
  onClose: () => void;
}

/** Fullscreen photo gallery: Escape closes (focus goes back to what opened it), left/right arrows navigate, Home/End go to the first/last photo. */
export function Gallery({ images, title, start, onClose }: GalleryProps) {
  const [index, setIndex] = useState(start ?? 0);
  const [failed, setFailed] = useState<Set<number>>(() => new Set());
  const open = start !== null;
  const closeButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    // What had focus when the gallery opened (the photo), then the close button.
    const opener = document.activeElement as HTMLElement | null;
    closeButton.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
      else if (event.key === "ArrowRight") setIndex((i) => (i + 1) % images.length);
      else if (event.key === "ArrowLeft") setIndex((i) => (i - 1 + images.length) % images.length);
      else if (event.key === "Home") setIndex(0);
      else if (event.key === "End") setIndex(images.length - 1);
      else return;
      event.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    return () => {
      document.removeEventListener("keydown", onKey);
      document.body.style.overflow = overflow;
      // Focus goes back where it was (the photo that opened the gallery), never to <body>.
      if (opener?.isConnected && opener !== document.body) opener.focus();
    };
  }, [open, images.length, onClose]);

  if (!open) return null;
  return createPortal(
    <div className="gallery" role="dialog" aria-modal="true" aria-label={`${title} photos`}>
      <button type="button" className="gallery-close" aria-label="Close gallery" onClick={onClose} ref={closeButton}>
        ×
      </button>
      {/* Full size, shown at its own size (no width/height: the box would stretch a small photo); opened on demand, so nothing shifts under it. */}
      <img
        {...(failed.has(index) ? { src: PLACEHOLDER_IMAGE, ...PLACEHOLDER_SIZE } : { src: images[index] })}
        decoding="async"
        alt={`${title}, photo ${index + 1} of ${images.length}`}
        onError={() => setFailed((f) => new Set(f).add(index))}
      />
      {images.length > 1 && (
        <>
          <button type="button" className="gallery-nav gallery-prev" aria-label="Previous photo" onClick={() => setIndex((i) => (i - 1 + images.length) % images.length)}>
            ‹
          </button>
          <button type="button" className="gallery-nav gallery-next" aria-label="Next photo" onClick={() => setIndex((i) => (i + 1) % images.length)}>
            ›
          </button>
        </>
      )}
      <p className="gallery-count" aria-live="polite">
        {index + 1} / {images.length}
      </p>
    </div>,
    document.body,
  );
}
