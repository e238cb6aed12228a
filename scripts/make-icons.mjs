// Renders assets/icon.svg into every icon file the installers need (run after editing the SVG;
// the outputs are committed so packaging needs no browser):
//   assets/icon.png          1024×1024 (macOS source, Linux fallback)
//   assets/icons/NxN.png     16…512 (Linux AppImage/deb hicolor sizes)
//   assets/icon.ico          16, 24, 32, 48, 64, 128, 256 (Windows NSIS and the exe)
//   assets/icon.icns         16…1024 incl. @2x (macOS dmg)
// Chromium draws the SVG (the same engine the app uses); png2icons packs ICO and ICNS.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import png2icons from 'png2icons';

const ASSETS = join(process.cwd(), 'assets');
const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512];
const svg = readFileSync(join(ASSETS, 'icon.svg'), 'utf8');

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
async function render(size) {
  const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
  await page.setContent(
    `<html><body style="margin:0;background:transparent">${svg.replace('width="1024" height="1024"', `width="${size}" height="${size}"`)}</body></html>`,
  );
  const png = await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
  await page.close();
  return png;
}
const big = await render(1024);
writeFileSync(join(ASSETS, 'icon.png'), big);
mkdirSync(join(ASSETS, 'icons'), { recursive: true });
for (const s of LINUX_SIZES) writeFileSync(join(ASSETS, 'icons', `${s}x${s}.png`), await render(s));
await browser.close();
writeFileSync(join(ASSETS, 'icon.ico'), png2icons.createICO(big, png2icons.BICUBIC2, 0, false, true));
writeFileSync(join(ASSETS, 'icon.icns'), png2icons.createICNS(big, png2icons.BICUBIC2, 0));
console.log('icons written to assets/');
