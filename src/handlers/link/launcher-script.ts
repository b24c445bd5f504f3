/**
 * The text of the sandbox's Link launcher (`GET /link/initialize.js`), the script
 * `@tryvital/vital-link`'s `useVitalLink` loads from `https://link.tryvital.io/initialize.js`.
 * The contract, read from that package (0.1.7): the script defines `window.Vital`; the hook calls
 * `window.Vital.create(config)` with `{ env, region?, onSuccess, onExit, onError, onLoad, ... }`
 * and, on the handler it gets back, `open(linkToken)`, `exit({ force })` and `destroy()`.
 *
 * `open` lays an overlay with an iframe of the sandbox's widget page (`<base>/link?token=...&env=
 * ...&region=...&opener=<the page's origin>`) over the page. The widget reports how the flow ended
 * with `postMessage` to that origin; the launcher takes only messages from the sandbox's origin
 * and from its own iframe, removes the overlay and calls `onSuccess`, `onExit` or `onError` with
 * the outcome (`{state: 'success'}` or `{state: 'error', error_type, error}`: the fields of the
 * real widget's redirect).
 *
 * LIMITATIONS
 * - The real launcher's messages and metadata are not published; the payload is the redirect's
 *   fields (docs/simulated/link.md).
 * - `exit()` closes the overlay and calls `onExit` without marking the token (the widget's Close
 *   button does).
 */

/** The `source` of every message the sandbox's widget posts to its launcher. */
export const LINK_MESSAGE_SOURCE = 'health-sandbox-link';

/** The launcher script for a sandbox whose widget lives at `base` (its base URL). */
export function launcherScript(base: string): string {
  return `/* health-sandbox Link launcher: window.Vital for @tryvital/vital-link (sandbox only). */
(function () {
  'use strict';
  var BASE = ${JSON.stringify(base)};
  var ORIGIN = new URL(BASE).origin;
  var SOURCE = ${JSON.stringify(LINK_MESSAGE_SOURCE)};
  var OVERLAY = 'position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.45);display:flex;align-items:center;justify-content:center';
  var FRAME = 'width:min(420px,100vw);height:min(640px,100vh);border:0;border-radius:12px;background:#fff';
  var last = null;

  function create(config) {
    config = config || {};
    var overlay = null;
    var frame = null;
    var listener = null;
    var destroyed = false;
    function call(name, metadata) {
      var f = config[name];
      if (typeof f === 'function') f(metadata);
    }
    function teardown() {
      if (listener) window.removeEventListener('message', listener);
      if (overlay && overlay.parentNode) overlay.parentNode.removeChild(overlay);
      listener = null;
      overlay = null;
      frame = null;
    }
    var handler = {
      open: function (token) {
        if (destroyed) return;
        teardown();
        var query = new URLSearchParams({
          token: token == null ? '' : String(token),
          env: config.env || 'sandbox',
          region: config.region || 'us',
          opener: window.location.origin,
        });
        overlay = document.createElement('div');
        overlay.id = 'vital-link-overlay';
        overlay.setAttribute('style', OVERLAY);
        frame = document.createElement('iframe');
        frame.id = 'vital-link-frame';
        frame.title = 'Link (sandbox)';
        frame.setAttribute('style', FRAME);
        frame.src = BASE + '/link?' + query.toString();
        var own = frame;
        listener = function (event) {
          if (event.origin !== ORIGIN || !own.contentWindow || event.source !== own.contentWindow) return;
          var data = event.data;
          if (!data || data.source !== SOURCE) return;
          teardown();
          if (data.event === 'success') call('onSuccess', data.metadata);
          else if (data.event === 'exit') call('onExit', data.metadata);
          else call('onError', data.metadata);
        };
        window.addEventListener('message', listener);
        overlay.appendChild(frame);
        document.body.appendChild(overlay);
      },
      exit: function () {
        if (!overlay) return;
        teardown();
        call('onExit', { state: 'exit' });
      },
      destroy: function () {
        teardown();
        destroyed = true;
      },
    };
    last = handler;
    if (typeof config.onLoad === 'function') Promise.resolve().then(function () { config.onLoad(); });
    return handler;
  }

  window.Vital = {
    create: create,
    open: function (token) { if (last) last.open(token); },
    exit: function (options) { if (last) last.exit(options); },
    destroy: function () { if (last) last.destroy(); },
  };
})();
`;
}
