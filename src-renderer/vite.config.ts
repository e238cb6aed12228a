// Builds the Svelte renderer into dist/renderer. Relative asset paths, so the same build is served
// from app://gcscope (Electron) and from `gcscope serve`; no inline scripts or styles (strict CSP).
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [svelte()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    assetsInlineLimit: 0,
    cssCodeSplit: false,
    modulePreload: { polyfill: false },
    sourcemap: true,
    minify: process.env.GCSCOPE_NO_MINIFY === '1' ? false : 'esbuild',
    target: 'es2022',
  },
});
