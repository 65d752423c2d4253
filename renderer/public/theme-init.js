// Applies the saved theme (localStorage "ui-theme", dark by default) before first paint so dark mode does
// not flash. An external file because the Content-Security-Policy allows no inline scripts.
(function () {
  var root = document.documentElement;
  try {
    var t = localStorage.getItem('ui-theme') || 'dark';
    var dark = t === 'dark' || (t === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches);
    root.classList.add(dark ? 'dark' : 'light');
  } catch (e) {
    root.classList.add('dark');
  }
})();
