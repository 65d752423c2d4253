// The page side of the DOM XSS probe (dom-xss.ts), installed before the page's own scripts. A payload
// that runs calls window.__vigilDom(id): the call, not the payload's presence, is what counts. The
// writers that turn a string into markup (the sinks) are watched for a payload, so a finding can name
// the one that let it in: innerHTML (which jQuery's .html(), Angular's [innerHTML] binding and React's
// dangerouslySetInnerHTML all end in), outerHTML, insertAdjacentHTML, document.write, Range fragments,
// srcdoc, and a frame's src or an attribute set to a javascript: URL (location itself cannot be watched:
// a payload run through it has no sink named).
export const domSinkScript = `(() => {
  const hits = [];
  const sinks = {};
  // Only a write that can run the payload names the sink: markup with the payload's handler, or a URL
  // that is the javascript: payload (a library merely reading location.href writes the payload too).
  const note = (sink, written, url) => {
    // Frameworks may write TrustedHTML objects (Angular does where Trusted Types exist): their text counts.
    const value = written === null || written === undefined ? '' : String(written);
    if (value.indexOf('__vigilDom(') < 0) { return; }
    if (url ? !/^\\s*javascript:/i.test(value) : !/on\\w+=__vigilDom\\(/i.test(value)) { return; }
    const m = /__vigilDom\\((\\d+)\\)/.exec(value);
    if (m && !(m[1] in sinks)) { sinks[m[1]] = sink; }
  };
  Object.defineProperty(window, '__vigilDom', { value: (id) => { hits.push(String(id)); } });
  Object.defineProperty(window, '__vigilDomHits', {
    value: () => hits.map((id) => ({ id, sink: sinks[id] || null })),
  });
  const setter = (proto, prop, sink, url) => {
    const d = proto && Object.getOwnPropertyDescriptor(proto, prop);
    if (!d || !d.set) { return; }
    Object.defineProperty(proto, prop, { ...d, set(value) { note(sink, value, url); return d.set.call(this, value); } });
  };
  const method = (proto, name, sink, arg) => {
    const original = proto && proto[name];
    if (typeof original !== 'function') { return; }
    proto[name] = function () {
      const value = arg === 'all' ? [...arguments].join('') : arguments[arg];
      if (typeof sink === 'function') {
        const attr = String(arguments[0]).toLowerCase();
        note('setAttribute("' + attr.slice(0, 20) + '")', value, attr !== 'srcdoc');
      } else {
        note(sink, value, false);
      }
      return original.apply(this, arguments);
    };
  };
  setter(Element.prototype, 'innerHTML', 'innerHTML');
  setter(Element.prototype, 'outerHTML', 'outerHTML');
  setter(window.HTMLIFrameElement && HTMLIFrameElement.prototype, 'srcdoc', 'iframe srcdoc');
  setter(window.HTMLIFrameElement && HTMLIFrameElement.prototype, 'src', 'iframe src', true);
  method(Element.prototype, 'insertAdjacentHTML', 'insertAdjacentHTML', 1);
  method(Element.prototype, 'setAttribute', () => 'setAttribute', 1);
  method(Document.prototype, 'write', 'document.write', 'all');
  method(Document.prototype, 'writeln', 'document.writeln', 'all');
  method(window.Range && Range.prototype, 'createContextualFragment', 'createContextualFragment', 0);
})();`;
