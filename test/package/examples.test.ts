/** Runs the recipes of docs/testing.md: each example registers its own describe blocks. */
import '../../examples/vitest-msw.example.js';
import '../../examples/sdk.example.js';
import '../../examples/ci-cli.example.js';
import '../../examples/svix-receiver.example.js';
import '../../examples/playwright.example.js';
import '../../examples/browser-worker.example.js';
