/// <reference types="vite/client" />
import jpeg from "jpeg-js";
import { encode as encodePng } from "fast-png";
import { describe, expect, it } from "vitest";
import { MAX_IMAGE_PIXELS, readImageSize } from "../../../worker/lib/image-size";
import { imagePixelsProblem } from "../../../worker/services/images";
import { anmf, flatJpeg, flatPng, gif, GIF_1x1, JPEG_1x1, PNG_1x1, png, riffChunk, vp8, vp8l, vp8x, webp, zeroRows } from "../helpers";

const fixtures = import.meta.glob<string>("../../fixtures/images/*.jpg", { query: "?inline", import: "default", eager: true });
const fixture = (name: string) => {
  const url = Object.entries(fixtures).find(([path]) => path.endsWith(`/${name}`))![1];
  return Uint8Array.from(atob(url.slice(url.indexOf(",") + 1)), (c) => c.charCodeAt(0));
};

describe("the image header reader (docs/decisions/036)", () => {
  it("reads a JPEG's frame header, after APPn and comment segments and fill bytes, whatever its coding", () => {
    for (const name of ["baseline-420.jpg", "baseline-444.jpg", "progressive-420.jpg", "greyscale.jpg", "baseline-420-restart.jpg", "arithmetic.jpg"])
      expect(readImageSize(fixture(name)), name).toEqual({ format: "jpeg", width: 643, height: 481 });
    expect(readImageSize(JPEG_1x1)).toEqual({ format: "jpeg", width: 1, height: 1 });
    const encoded = new Uint8Array(jpeg.encode({ width: 40, height: 30, data: Buffer.alloc(40 * 30 * 4, 90) }, 80).data);
    expect(readImageSize(encoded)).toEqual({ format: "jpeg", width: 40, height: 30 });
    // An EXIF segment and a comment before the frame, and fill bytes before a marker.
    const app1 = [0xff, 0xe1, 0x00, 0x08, ...new TextEncoder().encode("Exif\0\0")];
    const com = [0xff, 0xfe, 0x00, 0x05, 0x61, 0x62, 0x63];
    const withSegments = new Uint8Array([0xff, 0xd8, ...app1, 0xff, ...com, ...encoded.subarray(2)]);
    expect(readImageSize(withSegments)).toEqual({ format: "jpeg", width: 40, height: 30 });
    expect(readImageSize(flatJpeg(7000, 5000))).toEqual({ format: "jpeg", width: 7000, height: 5000 });
  });

  it("a JPEG cut short before its frame header, with a segment running past the end, without a height (DNL) or with the image data first is unreadable", () => {
    const encoded = new Uint8Array(jpeg.encode({ width: 40, height: 30, data: Buffer.alloc(40 * 30 * 4, 90) }, 80).data);
    const sof = encoded.findIndex((b, i) => b === 0xff && encoded[i + 1] === 0xc0);
    expect(readImageSize(encoded.subarray(0, sof + 6))).toBeNull(); // cut inside the frame header
    expect(readImageSize(encoded.subarray(0, 20))).toBeNull();
    expect(readImageSize(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0xff, 0xff, 0, 0]))).toBeNull(); // APP0 says 65535 bytes
    const noHeight = encoded.slice();
    noHeight[sof + 5] = 0;
    noHeight[sof + 6] = 0;
    expect(readImageSize(noHeight)).toBeNull();
    expect(readImageSize(new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0x00, 0x02, 0xff, 0xd9]))).toBeNull();
    expect(readImageSize(new Uint8Array([0xff, 0xd8]))).toBeNull();
  });

  it("reads a PNG's IHDR; a file cut inside it, or whose first chunk is not IHDR, is unreadable", async () => {
    expect(readImageSize(PNG_1x1)).toEqual({ format: "png", width: 1, height: 1 });
    const rgba = encodePng({ width: 300, height: 200, data: new Uint8Array(300 * 200 * 4), channels: 4 });
    expect(readImageSize(rgba)).toEqual({ format: "png", width: 300, height: 200 });
    const huge = await flatPng(6000, 6000);
    expect(huge.length).toBeLessThan(200_000);
    expect(readImageSize(huge)).toEqual({ format: "png", width: 6000, height: 6000 });
    expect(readImageSize(huge.subarray(0, 23))).toBeNull();
    const notFirst = huge.slice();
    notFirst.set(new TextEncoder().encode("IDAT"), 12);
    expect(readImageSize(notFirst)).toBeNull();
    // A header that says 0 rows.
    expect(readImageSize(await png({ width: 100, height: 0 }, zeroRows(100, 1)))).toBeNull();
  });

  it("reads WebP's canvas, lossy and lossless bitstreams and animation frames, the largest counting: a small canvas cannot hide a huge frame", () => {
    expect(readImageSize(webp([vp8(640, 480)]))).toEqual({ format: "webp", width: 640, height: 480 });
    expect(readImageSize(webp([vp8l(1000, 700)]))).toEqual({ format: "webp", width: 1000, height: 700 });
    expect(readImageSize(webp([vp8x(2000, 1500), vp8(2000, 1500)]))).toEqual({ format: "webp", width: 2000, height: 1500 });
    // The canvas says 100 x 100; the bitstream is 16,000 x 16,000 (256 megapixels).
    const lying = webp([vp8x(100, 100), vp8l(16000, 16000)]);
    expect(readImageSize(lying)).toEqual({ format: "webp", width: 16000, height: 16000 });
    expect(imagePixelsProblem(lying, "a.webp")).toEqual({ reason: "too_large", message: "a.webp is too large: at most 25 megapixels" });
    expect(readImageSize(webp([vp8x(200, 200), anmf(9000, 9000, vp8(9000, 9000))]))).toEqual({ format: "webp", width: 9000, height: 9000 });
    // A header cut short, a damaged start code, or no picture at all.
    expect(readImageSize(webp([vp8x(200, 200)]).subarray(0, 25))).toBeNull();
    const badStart = webp([vp8(640, 480)]);
    badStart[23] = 0;
    expect(readImageSize(badStart)).toBeNull();
    expect(readImageSize(webp([riffChunk("EXIF", [1, 2, 3, 4])]))).toBeNull();
    expect(readImageSize(new TextEncoder().encode("RIFF\u0000\u0000\u0000\u0000WEBPVP8 "))).toBeNull();
  });

  it("reads GIF's logical screen and every frame's extent: a frame reaching past a small screen counts", () => {
    expect(readImageSize(GIF_1x1)).toEqual({ format: "gif", width: 1, height: 1 });
    expect(readImageSize(gif({ width: 320, height: 240 }, [{ left: 0, top: 0, width: 320, height: 240 }]))).toEqual({ format: "gif", width: 320, height: 240 });
    const lying = gif({ width: 10, height: 10 }, [{ left: 0, top: 0, width: 10, height: 10 }, { left: 100, top: 100, width: 8000, height: 8000 }]);
    expect(readImageSize(lying)).toEqual({ format: "gif", width: 8100, height: 8100 });
    expect(imagePixelsProblem(lying, "party.gif")?.reason).toBe("too_large");
    // Cut inside the screen descriptor; cut after it (the screen is what is known).
    expect(readImageSize(GIF_1x1.subarray(0, 9))).toBeNull();
    expect(readImageSize(gif({ width: 50, height: 40 }, []).subarray(0, 13))).toEqual({ format: "gif", width: 50, height: 40 });
  });

  it("refuses over 25 megapixels and takes 25 exactly; anything without a readable header is unreadable", async () => {
    expect(MAX_IMAGE_PIXELS).toBe(25_000_000);
    expect(imagePixelsProblem(flatJpeg(5000, 5000), "exactly.jpg")).toBeNull();
    expect(imagePixelsProblem(flatJpeg(5000, 5001), "over.jpg")).toEqual({ reason: "too_large", message: "over.jpg is too large: at most 25 megapixels" });
    expect(imagePixelsProblem(await flatPng(6000, 6000), "big.png")?.message).toBe("big.png is too large: at most 25 megapixels");
    expect(imagePixelsProblem(new TextEncoder().encode("%PDF-1.4"), "doc.pdf")?.reason).toBe("unreadable");
    expect(imagePixelsProblem(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), "cut.png")?.reason).toBe("unreadable");
  });
});
