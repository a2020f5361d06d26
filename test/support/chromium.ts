/** Debian's Chromium as playwright-core drives it in every browser test and benchmark. */
import { chromium, type Browser } from 'playwright-core';

/** The browser playwright drives; Debian's package unless XLA_LENS_CHROMIUM names another. */
export const CHROMIUM = process.env.XLA_LENS_CHROMIUM ?? '/usr/bin/chromium';

/** Flags that make Chromium quiet and deterministic in a sandbox-less container without GPU. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches headless Chromium with the flags this machine needs. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}
