import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';

/**
 * The committed image set the near-duplicate check is measured on: synthetic phone screenshots of a
 * few made-up apps (two different screens of each), and copies of each screen as a cheat would make
 * them: resized, re-encoded as JPEG, and lightly cropped. A file's source is its name before the
 * first dot (`rating-1.cropped.png` is a copy of `rating-1.png`).
 */

const W = 360;
const H = 640;

/** A small deterministic generator, so the set is drawn the same on every run. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const text = (x: number, y: number, size: number, fill: string, body: string, weight = 'normal') =>
  `<text x="${x}" y="${y}" font-size="${size}" font-family="sans-serif" font-weight="${weight}" fill="${fill}">${esc(body)}</text>`;
const rect = (x: number, y: number, w: number, h: number, fill: string, r = 0) =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${r}" fill="${fill}"/>`;

const WORDS = 'good fast order price deal great item fresh daily offer quick nice value store review update level score coins bonus play news city sport market today India rupee'.split(' ');
function sentence(next: () => number, words: number) {
  return Array.from({ length: words }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ');
}

/** Rating screen of a shop app: header, app card, stars, a written review. */
function ratingScreen(seed: number) {
  const next = random(seed);
  const stars = 2 + Math.floor(next() * 4);
  const parts = [rect(0, 0, W, H, '#ffffff'), rect(0, 0, W, 72, '#0f9d58'), text(16, 46, 22, '#ffffff', 'Rate FreshCart', 'bold')];
  parts.push(rect(16, 96 + seed * 7, 72, 72, '#f4b400', 14), text(104, 124 + seed * 7, 20, '#202124', `FreshCart ${seed}.${Math.floor(next() * 9)}`, 'bold'));
  for (let i = 0; i < 5; i++) parts.push(text(24 + i * 44, 240, 40, i < stars ? '#f4b400' : '#dadce0', '★'));
  let y = 300;
  for (let i = 0; i < 4 + Math.floor(next() * 5); i++) {
    parts.push(text(16, y, 15, '#3c4043', sentence(next, 5)));
    y += 26;
  }
  parts.push(rect(16, y + 30, 150 + Math.floor(next() * 180), 48, '#0f9d58', 24), text(40, y + 61, 18, '#ffffff', 'Submit review', 'bold'));
  return parts;
}

/** A news article page: header, headline beside a picture, a quote box, paragraphs. */
function articleScreen(seed: number) {
  const next = random(seed * 31);
  const parts = [rect(0, 0, W, H, '#fafafa'), rect(0, 0, W, 56, '#1a73e8'), text(16, 37, 20, '#ffffff', 'Daily Khabar', 'bold')];
  parts.push(rect(190, 72, 154, 210, '#ea4335', 4));
  let y = 100;
  for (let i = 0; i < 5; i++) {
    parts.push(text(16, y, 18, '#111111', sentence(next, 2), 'bold'));
    y += 34;
  }
  parts.push(rect(0, 300, W, 90, '#263238'), text(24, 352, 18, '#ffffff', `“${sentence(next, 3)}”`));
  y = 420;
  while (y < H - 20) {
    parts.push(rect(16, y, W - 32 - Math.floor(next() * 40), 10, '#5f6368', 3));
    y += 18;
  }
  return parts;
}

/** A puzzle game's level screen: dark, a score, a grid of coloured tiles. */
function gameScreen(seed: number) {
  const next = random(seed * 97);
  const colours = ['#e91e63', '#00bcd4', '#ffeb3b', '#8bc34a', '#9c27b0', '#ff5722'];
  const parts = [rect(0, 0, W, H, '#1b1b2f'), text(16, 44, 22, '#ffffff', `Level ${10 + seed * 7}`, 'bold'), text(220, 44, 22, '#ffd54f', `${Math.floor(next() * 99999)}`)];
  parts.push(rect(16, 64, W - 32, 12, '#33334d', 6), rect(16, 64, 40 + Math.floor(next() * 280), 12, '#4caf50', 6));
  for (let row = 0; row < 7; row++) {
    for (let col = 0; col < 6; col++) {
      parts.push(rect(18 + col * 56, 110 + row * 64, 50, 56, colours[Math.floor(next() * colours.length)] ?? '#ffffff', 8));
    }
  }
  parts.push(text(90, 600, 20, '#bbbbbb', sentence(next, 2)));
  return parts;
}

/** A shopping list: header, search bar, product cards with prices. */
function shopScreen(seed: number) {
  const next = random(seed * 7919);
  const parts = [rect(0, 0, W, H, '#ffffff'), rect(0, 0, W, 64, '#ff6f00'), text(16, 42, 22, '#ffffff', 'BazaarKart', 'bold'), rect(16, 80, W - 32, 40, '#eeeeee', 20)];
  parts.push(text(32, 106, 15, '#757575', `Search ${sentence(next, 1)}`));
  for (let i = 0; i < 4; i++) {
    const y = 140 + i * 120;
    const shade = Math.floor(next() * 200);
    parts.push(rect(16, y, 96, 100, `rgb(${shade},${255 - shade},${(shade * 3) % 255})`, 8));
    parts.push(text(124, y + 28, 17, '#212121', sentence(next, 2), 'bold'), text(124, y + 56, 15, '#616161', sentence(next, 3)));
    parts.push(text(124, y + 86, 18, '#2e7d32', `₹${100 + Math.floor(next() * 9000)}`, 'bold'));
  }
  return parts;
}

/** The shop app's thank-you screen after a review: dark, a big tick in a circle, one line. */
function thanksScreen(seed: number) {
  const next = random(seed * 131);
  return [
    rect(0, 0, W, H, '#202124'),
    rect(0, 0, W, 72, '#0f9d58'),
    text(16, 46, 22, '#ffffff', 'FreshCart', 'bold'),
    `<circle cx="250" cy="300" r="90" fill="#0f9d58"/>`,
    text(205, 330, 90, '#ffffff', '✓', 'bold'),
    text(16, 480, 20, '#e8eaed', `Thanks! ${sentence(next, 2)}`),
    rect(16, 540, 140, 48, '#8ab4f8', 24),
  ];
}

/** The news site's list of headlines, each with a picture on the right. */
function headlinesScreen(seed: number) {
  const next = random(seed * 17);
  const parts = [rect(0, 0, W, H, '#fafafa'), rect(0, 0, W, 56, '#1a73e8'), text(16, 37, 20, '#ffffff', 'Daily Khabar', 'bold')];
  for (let i = 0; i < 5; i++) {
    const y = 76 + i * 112;
    parts.push(text(16, y + 30, 16, '#111111', sentence(next, 3), 'bold'), rect(16, y + 48, 160, 8, '#5f6368', 3));
    parts.push(rect(230, y + 8, 114, 92, ['#34a853', '#ea4335', '#fbbc04'][i % 3] ?? '#34a853', 6));
  }
  return parts;
}

/** The game's results: a trophy block on the left and a column of score bars. */
function resultsScreen(seed: number) {
  const next = random(seed * 53);
  const parts = [rect(0, 0, W, H, '#f5f0e1'), rect(20, 60, 150, 220, '#ffb300', 20), text(48, 200, 64, '#5d4037', '🏆')];
  for (let i = 0; i < 6; i++) parts.push(rect(190, 70 + i * 36, 40 + Math.floor(next() * 120), 24, '#6d4c41', 4));
  parts.push(rect(0, 340, W, 300, '#3e2723'), text(20, 420, 30, '#ffffff', `Score ${Math.floor(next() * 9999)}`, 'bold'));
  return parts;
}

/** The shop's cart: products in two columns, a total bar at the foot. */
function cartScreen(seed: number) {
  const next = random(seed * 7);
  const parts = [rect(0, 0, W, H, '#fff3e0'), rect(0, 0, W, 64, '#ff6f00'), text(16, 42, 22, '#ffffff', 'Your cart', 'bold')];
  for (let i = 0; i < 4; i++) {
    const x = 16 + (i % 2) * 172;
    const y = 84 + Math.floor(i / 2) * 200;
    parts.push(rect(x, y, 156, 150, '#5d4037', 10), text(x, y + 176, 15, '#212121', sentence(next, 2)));
  }
  parts.push(rect(0, H - 90, W, 90, '#212121'), text(16, H - 38, 22, '#ffffff', `Total ₹${1000 + Math.floor(next() * 9000)}`, 'bold'));
  return parts;
}

/** Per app, two different screens of it. */
const SCREENS = {
  rating: [ratingScreen, thanksScreen],
  article: [articleScreen, headlinesScreen],
  game: [gameScreen, resultsScreen],
  shop: [shopScreen, cartScreen],
} as const;

function svgOf(parts: readonly string[]) {
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${parts.join('')}</svg>`);
}

/** The copies of one screen a cheat would send, by their name suffix. */
const COPIES: Record<string, (png: Buffer) => Promise<Buffer>> = {
  'resized.png': (png) => sharp(png).resize(Math.round(W * 0.6)).png().toBuffer(),
  'jpeg.jpg': (png) => sharp(png).jpeg({ quality: 45 }).toBuffer(),
  'cropped.png': (png) => sharp(png).extract({ left: 8, top: 14, width: W - 20, height: H - 32 }).png().toBuffer(),
  'resized-jpeg.jpg': (png) => sharp(png).resize(Math.round(W * 0.75)).jpeg({ quality: 60 }).toBuffer(),
};

/** Draws the set into `dir`: per app, two distinct screens and every copy of each. Returns the file names. */
export async function writeProofFixtures(dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const names: string[] = [];
  for (const [app, screens] of Object.entries(SCREENS)) {
    for (const [index, draw] of screens.entries()) {
      const source = `${app}-${index + 1}`;
      const png = await sharp(svgOf(draw(index + 1))).png({ compressionLevel: 9, palette: true }).toBuffer();
      await writeFile(join(dir, `${source}.png`), png);
      names.push(`${source}.png`);
      for (const [suffix, copy] of Object.entries(COPIES)) {
        await writeFile(join(dir, `${source}.${suffix}`), await copy(png));
        names.push(`${source}.${suffix}`);
      }
    }
  }
  return names;
}
