/**
 * Where the system Chromium is and how the tests start it (Debian's /usr/bin/chromium, or
 * `CHROMIUM_PATH`, through playwright-core, never a downloaded browser). Shared by the run's one
 * browser (test/support/chromium-broker.ts, vitest's global setup) and by a worker that has no
 * broker to ask (test/support/chromium.ts).
 */
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);

/** playwright-core's launch options for it (`launch` and `launchServer` alike). */
export const CHROMIUM_LAUNCH = {
  executablePath: CHROMIUM,
  headless: true,
  timeout: 30_000,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
