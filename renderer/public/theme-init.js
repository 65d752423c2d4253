// Runs in <head> before first paint. An external file because the Content-Security-Policy allows no inline
// scripts (the build serves a minified copy). It (1) applies the saved theme (localStorage "ui-theme", dark
// by default) so dark mode does not flash; (2) picks the page prerendered into index.html for this path,
// if any (scripts/prerender.ts writes the table into <meta name="vigil-shells">; renderer/src/app/shells.ts
// explains it), which main.tsx then hydrates; (3) starts the app's code (<meta name="vigil-entry">) with the
// chunks this path needs at once.
(function () {
  var root = document.documentElement;

  // Mirrors mayHaveStoredSession() (lib/auth/stored-session.ts): a supabase-js session key, or storage
  // that cannot be read, may mean a signed-in visitor; the desktop app keeps its session in its vault.
  function maySignedIn() {
    if (window.vigil) {
      return true;
    }
    try {
      for (var i = 0; i < localStorage.length; i += 1) {
        if (/^sb-.+-auth-token$/.test(localStorage.key(i) || '')) {
          return true;
        }
      }
      return false;
    } catch (e) {
      return true;
    }
  }

  function framed() {
    try {
      return window.self !== window.top;
    } catch (e) {
      return true;
    }
  }

  function readMeta(name, fallback) {
    var meta = document.querySelector('meta[name="' + name + '"]');
    // A development server or an unprocessed build has neither table.
    return meta ? JSON.parse(meta.getAttribute('content') || 'null') : fallback;
  }

  var currentPath = location.pathname.toLowerCase().replace(/\/+$/, '') || '/';

  // (1) Theme.
  try {
    var t = localStorage.getItem('ui-theme') || 'dark';
    var dark = t === 'dark' || (t === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches);
    root.classList.add(dark ? 'dark' : 'light');
  } catch (e) {
    root.classList.add('dark');
  }

  // (2) The prerendered page for this path: shown by the CSS of <head> once <html data-shell> names it.
  try {
    var shells = readMeta('vigil-shells', []);
    for (var i = 0; i < shells.length; i += 1) {
      var shell = shells[i];
      if (shell.paths.indexOf(currentPath) === -1) {
        continue;
      }
      // A visitor-only page is what a signed-out visitor in its own tab sees.
      if (!(shell.visitorOnly && (framed() || maySignedIn()))) {
        root.setAttribute('data-shell', shell.name);
        // The landing page clears any query string (tracking parameters, stale auth codes; docs/product.md §2).
        // Its prerendered copy is on screen before the app runs, so the address bar is cleaned here.
        if (shell.name === 'landing' && location.search) {
          history.replaceState(history.state, '', location.pathname + location.hash);
        }
      }
      break;
    }
  } catch (e) {
    // A malformed table shows no prerendered page: the app renders as usual.
  }

  // (3) The app's code.
  var entry = readMeta('vigil-entry', null);
  if (!entry) {
    return;
  }
  var started = false;
  function preload(href) {
    var link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.appendChild(link);
  }
  function load() {
    if (started) {
      return;
    }
    started = true;
    entry.preload.forEach(preload);
    var signedIn = maySignedIn();
    // With a stored session supabase-js is needed at once (the session check): fetch it beside the entry.
    if (signedIn) {
      entry.session.forEach(preload);
    }
    // The page's route modules, which main.tsx loads before its first render: fetched beside the entry
    // instead of after it has run. Pages only a signed-in visitor sees are skipped for others.
    var routes = entry.routes || [];
    for (var r = 0; r < routes.length; r += 1) {
      if (routes[r].paths.indexOf(currentPath) !== -1) {
        if (signedIn || !routes[r].signedIn) {
          routes[r].files.forEach(preload);
        }
        break;
      }
    }
    var script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = entry.entry;
    document.head.appendChild(script);
  }
  // The app needs #root, parsed by DOMContentLoaded. A prerendered page paints first without the app, so
  // its code starts once the browser reports that first contentful paint and does not compete with the
  // HTML and CSS for the network. Without paint timing, two animation frames approximate it; the timer
  // covers background tabs, which paint nothing.
  function afterFirstPaint() {
    var types = window.PerformanceObserver && PerformanceObserver.supportedEntryTypes;
    if (types && types.indexOf('paint') !== -1) {
      var observer = new PerformanceObserver(function (list) {
        if (list.getEntriesByName('first-contentful-paint').length > 0) {
          observer.disconnect();
          load();
        }
      });
      observer.observe({ type: 'paint', buffered: true });
    } else {
      requestAnimationFrame(function () {
        requestAnimationFrame(load);
      });
    }
    setTimeout(load, 1500);
  }
  document.addEventListener('DOMContentLoaded', function () {
    if (root.hasAttribute('data-shell')) {
      afterFirstPaint();
    } else {
      load();
    }
  });
})();
