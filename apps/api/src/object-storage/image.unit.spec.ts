import { describe, expect, it } from 'vitest';
import { sniffImageType, sniffStream } from './image.ts';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

describe('sniffImageType', () => {
  it('knows the four accepted formats by their first bytes', () => {
    expect(sniffImageType(bytes([0x89], 'PNG\r\n\x1a\n', [0, 0, 0, 13]))).toBe('image/png');
    expect(sniffImageType(bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], 'JFIF'))).toBe('image/jpeg');
    expect(sniffImageType(bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '))).toBe('image/webp');
    expect(sniffImageType(bytes('GIF87a', [1, 0, 1, 0]))).toBe('image/gif');
    expect(sniffImageType(bytes('GIF89a', [1, 0, 1, 0]))).toBe('image/gif');
  });

  it('refuses everything else, including look-alikes and truncated signatures', () => {
    for (const head of [
      bytes(''),
      bytes('<svg xmlns="http://www.w3.org/2000/svg">'),
      bytes('<html><script>alert(1)</script>'),
      bytes('%PDF-1.7'),
      bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt '),
      bytes('GIF88a'),
      bytes([0x89], 'PNG'),
      bytes([0xff, 0xd8]),
      bytes(' ', [0x89], 'PNG\r\n\x1a\n'),
    ]) {
      expect(sniffImageType(head), JSON.stringify(head.toString('latin1'))).toBeNull();
    }
  });
});

describe('sniffStream', () => {
  const streamOf = (chunks: Uint8Array[]) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });

  it('sniffs across small chunks and still yields every byte', async () => {
    const png = bytes([0x89], 'PNG\r\n\x1a\n', 'rest of the image');
    const chunks = [...png].map((b) => Uint8Array.of(b));
    const { type, body } = await sniffStream(streamOf(chunks));
    expect(type).toBe('image/png');
    expect(Buffer.from(await new Response(body).arrayBuffer())).toEqual(png);
  });

  it('handles a stream shorter than the sniff window', async () => {
    const { type, body } = await sniffStream(streamOf([bytes('GIF')]));
    expect(type).toBeNull();
    expect(Buffer.from(await new Response(body).arrayBuffer()).toString()).toBe('GIF');
  });
});
