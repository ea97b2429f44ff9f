import { useEffect, useState } from "react";
import { createPortal } from "react-dom";
import { PLACEHOLDER_IMAGE } from "../../../components/ui/carousel";

interface GalleryProps {
  images: string[];
  title: string;
  start: number | null;
  onClose: () => void;
}

/** Fullscreen photo gallery: Escape closes, left/right arrows navigate. */
export function Gallery({ images, title, start, onClose }: GalleryProps) {
  const [index, setIndex] = useState(start ?? 0);
  const [failed, setFailed] = useState<Set<number>>(() => new Set());
  const open = start !== null;

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
      else if (event.key === "ArrowRight") setIndex((i) => (i + 1) % images.length);
      else if (event.key === "ArrowLeft") setIndex((i) => (i - 1 + images.length) % images.length);
    };
    document.addEventListener("keydown", onKey);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    return () => {
      document.removeEventListener("keydown", onKey);
      document.body.style.overflow = overflow;
    };
  }, [open, images.length, onClose]);

  if (!open) return null;
  return createPortal(
    <div className="gallery" role="dialog" aria-modal="true" aria-label={`${title} photos`}>
      <button type="button" className="gallery-close" aria-label="Close gallery" onClick={onClose} autoFocus>
        ×
      </button>
      <img
        src={failed.has(index) ? PLACEHOLDER_IMAGE : images[index]}
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
